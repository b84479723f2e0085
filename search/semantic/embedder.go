// Package semantic turns text into vectors whose dot product measures
// closeness of meaning: the static model built into the binary (Static,
// Embedded), and the interface served models implement too (Embedder).
// It uses the standard library only.
package semantic

import (
	"context"
	"errors"
)

// Embedder turns texts into L2-normalised vectors of Dims() floats.
//
// Implementations are safe for concurrent use. Embed returns one vector per
// text, in order; a text with nothing the model knows gets the zero vector.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	Dims() int
	// ModelID names the model, its size and its content, so that vectors
	// made by one model are never compared with another's.
	ModelID() string
}

// QueryEmbedder is an Embedder for asymmetric models, which embed a search
// query otherwise than the documents it is to find (e5's "query: " and
// "passage: ", nomic-embed-text's "search_query: "). Searches embed their
// query with EmbedQuery when the Embedder has it, else with Embed; papers
// always go through Embed. Its vectors are comparable with Embed's: same
// Dims, same ModelID.
type QueryEmbedder interface {
	Embedder
	EmbedQuery(ctx context.Context, text string) ([]float32, error)
}

// ErrDims is returned for vectors of another size than expected (a served
// model answering with vectors of another size than before).
var ErrDims = errors.New("semantic: wrong vector size")
