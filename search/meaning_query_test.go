package search

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/paperbot/paperbot/search/semantic"
)

// asymmetricEmbedder is the embedded model with a query path of its own,
// as a prefixed served model has: a query is embedded as the words
// queryAs gives it (a model that reads French queries, say), documents as
// they are. It records the texts each path received.
type asymmetricEmbedder struct {
	semantic.Embedder
	queryAs map[string]string

	mu      sync.Mutex
	queries []string
	docs    []string
}

var _ semantic.QueryEmbedder = (*asymmetricEmbedder)(nil)

func (a *asymmetricEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	a.mu.Lock()
	a.docs = append(a.docs, texts...)
	a.mu.Unlock()
	return a.Embedder.Embed(ctx, texts)
}

func (a *asymmetricEmbedder) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	a.mu.Lock()
	a.queries = append(a.queries, text)
	a.mu.Unlock()
	vs, err := a.Embedder.Embed(ctx, []string{a.queryAs[text]})
	if err != nil {
		return nil, err
	}
	return vs[0], nil
}

// TestQueryEmbedderEmbedsTheQuery: with a model that embeds queries
// otherwise than papers, a search embeds its query through EmbedQuery and
// finds what that vector is near; the papers went through Embed alone.
func TestQueryEmbedderEmbedsTheQuery(t *testing.T) {
	_, c := seedIndex(t)
	m, err := embeddedModel()
	if err != nil {
		t.Fatal(err)
	}
	emb := &asymmetricEmbedder{Embedder: m, queryAs: map[string]string{"cerveau": "neuroscience"}}
	ix := openT(t, c, Options{Embedder: emb})
	res := search2(t, ix, "cerveau")
	if len(res.Results) == 0 || res.Results[0].ID != "ba0mzbhf" || res.Results[0].Meaning <= 0 {
		t.Fatalf("\"cerveau\" (embedded as a query: \"neuroscience\") found %v, want NeuroTree (ba0mzbhf) first by meaning", ids(res.Results))
	}
	emb.mu.Lock()
	defer emb.mu.Unlock()
	if !slices.Equal(emb.queries, []string{"cerveau"}) {
		t.Errorf("EmbedQuery received %q, want the query once", emb.queries)
	}
	if slices.Contains(emb.docs, "cerveau") {
		t.Errorf("the query was embedded as a document through Embed")
	}
	if len(emb.docs) < len(c.Papers) {
		t.Errorf("Embed received %d texts for %d papers", len(emb.docs), len(c.Papers))
	}
}
