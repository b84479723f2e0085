package served

import (
	"context"
	"sync/atomic"

	"github.com/paperbot/paperbot/search/semantic"
)

// CachedEmbedder wraps an Embedder with a Cache: texts embedded before by
// the same model (same ModelID) come from the cache, the rest from the
// embedder, and are stored. A cache that fails to read or write is logged
// and bypassed; the vectors still come back. It is safe for concurrent use.
type CachedEmbedder struct {
	inner  semantic.Embedder
	cache  *Cache
	hits   atomic.Int64
	misses atomic.Int64
}

var _ semantic.QueryEmbedder = (*CachedEmbedder)(nil)

// prober is an embedder that can learn its vector size (Client).
type prober interface {
	Probe(ctx context.Context) (int, error)
}

// prefixer is an embedder that puts a prefix before queries and documents
// (Client): the cache keys a text by what the server is sent, so a query
// and a document of the same words, sent with other prefixes, never share
// a vector.
type prefixer interface {
	Prefixes() (query, document string)
}

// prefixes are inner's query and document prefixes ("" when it has none).
func (c *CachedEmbedder) prefixes() (query, document string) {
	if p, ok := c.inner.(prefixer); ok {
		return p.Prefixes()
	}
	return "", ""
}

// NewCachedEmbedder returns inner with cache in front of it. A nil cache
// (one that could not be opened) passes every text to inner.
func NewCachedEmbedder(inner semantic.Embedder, cache *Cache) *CachedEmbedder {
	return &CachedEmbedder{inner: inner, cache: cache}
}

// Dims is the inner embedder's.
func (c *CachedEmbedder) Dims() int { return c.inner.Dims() }

// ModelID is the inner embedder's: the cache changes no vector.
func (c *CachedEmbedder) ModelID() string { return c.inner.ModelID() }

// Stats returns how many texts came from the cache and how many were
// embedded, since the start.
func (c *CachedEmbedder) Stats() (hits, misses int64) { return c.hits.Load(), c.misses.Load() }

// Embed returns a vector per document text, embedding only those not
// cached.
func (c *CachedEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	_, prefix := c.prefixes()
	return c.embed(ctx, texts, prefix, c.inner.Embed)
}

// EmbedQuery returns a query's vector, from the cache if it was embedded
// before as a query. An inner embedder without EmbedQuery embeds it as a
// document.
func (c *CachedEmbedder) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	qe, ok := c.inner.(semantic.QueryEmbedder)
	if !ok {
		vs, err := c.Embed(ctx, []string{text})
		if err != nil {
			return nil, err
		}
		return vs[0], nil
	}
	if _, known := c.inner.(prefixer); !known {
		// What the server is sent is unknown: a key could be a document's.
		c.misses.Add(1)
		return qe.EmbedQuery(ctx, text)
	}
	prefix, _ := c.prefixes()
	vs, err := c.embed(ctx, []string{text}, prefix, func(ctx context.Context, texts []string) ([][]float32, error) {
		v, err := qe.EmbedQuery(ctx, texts[0]) // one text: a miss of one query
		if err != nil {
			return nil, err
		}
		return [][]float32{v}, nil
	})
	if err != nil {
		return nil, err
	}
	return vs[0], nil
}

// embed returns a vector per text, from the cache where it holds prefix
// and the text, else from embed (which adds the prefix itself).
func (c *CachedEmbedder) embed(ctx context.Context, texts []string, prefix string, embed func(context.Context, []string) ([][]float32, error)) ([][]float32, error) {
	if c.cache == nil {
		c.misses.Add(int64(len(texts)))
		return embed(ctx, texts)
	}
	if c.inner.Dims() == 0 {
		// The cache is keyed by ModelID, which holds the size.
		if p, ok := c.inner.(prober); ok {
			if _, err := p.Probe(ctx); err != nil {
				return nil, err
			}
		}
	}
	model, dims := c.inner.ModelID(), c.inner.Dims()
	keys := make([][32]byte, len(texts))
	for i, t := range texts {
		keys[i] = key(prefix + t)
	}
	out, err := c.cache.get(model, keys, dims)
	if err != nil {
		c.cache.log.Warn("embeddings cache unreadable; embedding every text", "file", c.cache.path, "err", err)
		out = make([][]float32, len(texts))
	}
	// Embed each missing text once, however often it recurs.
	first := map[[32]byte]int{}
	var missTexts []string
	var missKeys [][32]byte
	for i, v := range out {
		if v != nil {
			continue
		}
		if _, seen := first[keys[i]]; !seen {
			first[keys[i]] = len(missTexts)
			missTexts = append(missTexts, texts[i])
			missKeys = append(missKeys, keys[i])
		}
	}
	c.hits.Add(int64(len(texts) - len(missTexts)))
	c.misses.Add(int64(len(missTexts)))
	if len(missTexts) == 0 {
		return out, nil
	}
	vecs, err := embed(ctx, missTexts)
	if err != nil {
		return nil, err
	}
	if err := c.cache.put(c.inner.ModelID(), missKeys, vecs); err != nil {
		c.cache.log.Warn("embeddings cache unwritable; vectors not kept", "file", c.cache.path, "err", err)
	}
	used := make([]bool, len(vecs))
	for i, v := range out {
		if v != nil {
			continue
		}
		j := first[keys[i]]
		if out[i] = vecs[j]; used[j] {
			out[i] = append([]float32(nil), vecs[j]...) // a repeated text gets its own copy
		}
		used[j] = true
	}
	return out, nil
}
