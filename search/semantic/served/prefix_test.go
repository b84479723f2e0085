package served

import (
	"context"
	"slices"
	"testing"
)

// e5's prefixes, as an operator would set them.
var e5 = Config{QueryPrefix: "query: ", DocumentPrefix: "passage: "}

func TestPrefixesReachTheServer(t *testing.T) {
	f := newFake(t, 8)
	c, _ := newClient(t, f, e5)
	ctx := context.Background()
	if _, err := c.Probe(ctx); err != nil {
		t.Fatal(err)
	}
	docs, err := c.Embed(ctx, []string{"kv cache compression", "", "sparse attention"})
	if err != nil {
		t.Fatal(err)
	}
	q, err := c.EmbedQuery(ctx, "kv cache compression")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"passage: " + probeText, "passage: kv cache compression", "passage: sparse attention", "query: kv cache compression"}
	if got := f.received(); !slices.Equal(got, want) {
		t.Errorf("server received %q, want %q", got, want)
	}
	assertFakeVectors(t, 8, []string{"passage: kv cache compression"}, docs[:1])
	assertFakeVectors(t, 8, []string{"query: kv cache compression"}, [][]float32{q})
	if docs[1][0] != 0 {
		t.Errorf("an empty document got %v, want the zero vector", docs[1])
	}
	if v, err := c.EmbedQuery(ctx, " "); err != nil || len(v) != 8 || v[0] != 0 || len(f.received()) != len(want) {
		t.Errorf("an empty query: %v %v, %d texts sent; want the zero vector without a request", v, err, len(f.received()))
	}
}

func TestNoPrefixesSendTextsAsTheyAre(t *testing.T) {
	f := newFake(t, 8)
	c, _ := newClient(t, f, Config{})
	ctx := context.Background()
	if _, err := c.Embed(ctx, []string{"a paper"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.EmbedQuery(ctx, "a query"); err != nil {
		t.Fatal(err)
	}
	if got, want := f.received(), []string{"a paper", "a query"}; !slices.Equal(got, want) {
		t.Errorf("server received %q, want %q", got, want)
	}
}

// TestModelIDNamesThePrefixes: vectors made with other prefixes are
// another model's (the index is rebuilt, the cache not shared); without
// prefixes the ID is what it was before they existed, so existing indexes
// and caches stay valid.
func TestModelIDNamesThePrefixes(t *testing.T) {
	id := func(q, d string) string {
		c, err := New(Config{URL: "http://127.0.0.1:11434", Model: "e5-base", Dims: 768, QueryPrefix: q, DocumentPrefix: d})
		if err != nil {
			t.Fatal(err)
		}
		return c.ModelID()
	}
	if got := id("", ""); got != "served/e5-base/768" {
		t.Errorf("ModelID without prefixes = %q, want served/e5-base/768 as before", got)
	}
	seen := map[string][2]string{}
	for _, p := range [][2]string{{"", ""}, {"query: ", "passage: "}, {"query: ", ""}, {"", "query: "}, {"passage: ", "query: "}, {"query:", "passage:"}, {"query: passage: ", ""}} {
		got := id(p[0], p[1])
		if other, dup := seen[got]; dup {
			t.Errorf("prefixes %q and %q share ModelID %q", p, other, got)
		}
		seen[got] = p
	}
	if a, b := id("query: ", "passage: "), id("query: ", "passage: "); a != b {
		t.Errorf("the same prefixes give ModelIDs %q and %q", a, b)
	}
}

// TestCacheKeepsQueriesApart: a query and a document of the same words
// are two texts to the server and two entries in the cache; each is
// embedded once.
func TestCacheKeepsQueriesApart(t *testing.T) {
	f := newFake(t, 16)
	client, _ := newClient(t, f, e5)
	dir := t.TempDir()
	e := NewCachedEmbedder(client, openCache(t, dir))
	ctx := context.Background()
	const words = "kv cache compression"
	doc, err := e.Embed(ctx, []string{words})
	if err != nil {
		t.Fatal(err)
	}
	q, err := e.EmbedQuery(ctx, words)
	if err != nil {
		t.Fatal(err)
	}
	assertFakeVectors(t, 16, []string{"passage: " + words, "query: " + words}, [][]float32{doc[0], q})
	sent := len(f.received())
	again, err := e.EmbedQuery(ctx, words)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Embed(ctx, []string{words}); err != nil {
		t.Fatal(err)
	}
	if len(f.received()) != sent {
		t.Errorf("the second query and document were sent again: %q", f.received()[sent:])
	}
	assertFakeVectors(t, 16, []string{"query: " + words}, [][]float32{again})
	if hits, misses := e.Stats(); hits != 2 || misses != 2 {
		t.Errorf("Stats = %d hits, %d misses; want 2 and 2", hits, misses)
	}
}

// hiddenPrefixes is a Client whose prefixes the cache cannot see.
type hiddenPrefixes struct{ c *Client }

func (h hiddenPrefixes) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return h.c.Embed(ctx, texts)
}
func (h hiddenPrefixes) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	return h.c.EmbedQuery(ctx, text)
}
func (h hiddenPrefixes) Dims() int       { return h.c.Dims() }
func (h hiddenPrefixes) ModelID() string { return h.c.ModelID() }

// TestCacheWithUnknownPrefixesAsksForQueries: an embedder that marks
// queries in a way the cache cannot see gets every query asked of it,
// never a document's cached vector.
func TestCacheWithUnknownPrefixesAsksForQueries(t *testing.T) {
	f := newFake(t, 16)
	client, _ := newClient(t, f, e5)
	e := NewCachedEmbedder(hiddenPrefixes{client}, openCache(t, t.TempDir()))
	ctx := context.Background()
	if _, err := e.Embed(ctx, []string{"kv cache"}); err != nil {
		t.Fatal(err)
	}
	q, err := e.EmbedQuery(ctx, "kv cache")
	if err != nil {
		t.Fatal(err)
	}
	assertFakeVectors(t, 16, []string{"query: kv cache"}, [][]float32{q})
}
