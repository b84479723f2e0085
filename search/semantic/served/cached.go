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

var _ semantic.Embedder = (*CachedEmbedder)(nil)

// prober is an embedder that can learn its vector size (Client).
type prober interface {
	Probe(ctx context.Context) (int, error)
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

// Embed returns a vector per text, embedding only those not cached.
func (c *CachedEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if c.cache == nil {
		c.misses.Add(int64(len(texts)))
		return c.inner.Embed(ctx, texts)
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
		keys[i] = key(t)
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
	vecs, err := c.inner.Embed(ctx, missTexts)
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
