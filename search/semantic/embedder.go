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

// ErrDims is returned for vectors of another size than expected (a served
// model answering with vectors of another size than before).
var ErrDims = errors.New("semantic: wrong vector size")
