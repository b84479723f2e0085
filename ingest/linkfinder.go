package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/paperbot/paperbot/fault"
	"github.com/paperbot/paperbot/ingest/sources"
	"github.com/paperbot/paperbot/search"
	"github.com/paperbot/paperbot/search/corpus"
)

// How long a looked-up link is trusted: a found paper changes little (a new
// version, a venue); an unknown one may be announced tomorrow.
const (
	LinkFoundKeep    = 30 * 24 * time.Hour
	LinkNotFoundKeep = 24 * time.Hour
)

// LinkCache keeps looked-up links by link key, as opaque values with the
// time they were stored. Get reports ok=false for a key never stored.
// Implementations must be safe for concurrent use (bot/boltstore keeps it
// in the bot's store; MemoryLinkCache in memory).
type LinkCache interface {
	GetLink(ctx context.Context, key string) (val []byte, at time.Time, ok bool, err error)
	PutLink(ctx context.Context, key string, val []byte, at time.Time) error
}

// LinkFinder finds the paper behind a pasted arXiv or OpenReview link the
// index lacks, through the feeds' polite client, and caches the answer
// (found or not) so a link pasted again costs no request. It implements
// bot.PaperFinder. Safe for concurrent use.
type LinkFinder struct {
	client *sources.Client
	cache  LinkCache
	now    func() time.Time
}

// NewLinkFinder returns a LinkFinder over client and cache; now is the clock
// (nil: time.Now).
func NewLinkFinder(client *sources.Client, cache LinkCache, now func() time.Time) *LinkFinder {
	if now == nil {
		now = time.Now
	}
	return &LinkFinder{client: client, cache: cache, now: now}
}

// cachedLink is what the cache holds for a key: the paper, or none.
type cachedLink struct {
	Found bool         `json:"found"`
	Paper search.Paper `json:"paper"`
}

// FindPaper returns the paper link points to. A link that is not to a
// paper on arXiv or OpenReview, or to one they do not know, is an error of
// kind fault.NotFound; an unreachable service is another error (not
// cached: the next paste tries again).
func (f *LinkFinder) FindPaper(ctx context.Context, link string) (search.Paper, error) {
	key, ok := corpus.PaperLinkKey(link)
	if !ok {
		return search.Paper{}, notFound(link)
	}
	if val, at, ok, err := f.cache.GetLink(ctx, key); err == nil && ok {
		var c cachedLink
		keep := LinkNotFoundKeep
		if json.Unmarshal(val, &c) == nil {
			if c.Found {
				keep = LinkFoundKeep
			}
			if f.now().Sub(at) < keep {
				if !c.Found {
					return search.Paper{}, notFound(link)
				}
				return c.Paper, nil
			}
		}
	}
	r, err := f.client.LookUp(ctx, key)
	switch {
	case errors.Is(err, sources.ErrNotFound):
		f.store(ctx, key, cachedLink{})
		return search.Paper{}, notFound(link)
	case err != nil:
		return search.Paper{}, err
	}
	p := r.Paper()
	f.store(ctx, key, cachedLink{Found: true, Paper: p})
	return p, nil
}

func (f *LinkFinder) store(ctx context.Context, key string, c cachedLink) {
	if val, err := json.Marshal(c); err == nil {
		_ = f.cache.PutLink(ctx, key, val, f.now()) // a lost cache entry only costs a request
	}
}

func notFound(link string) error {
	return &fault.Error{Op: "find paper", Kind: fault.NotFound, Msg: fmt.Sprintf("no source knows a paper at %s", link)}
}

// MemoryLinkCache is a LinkCache in memory, for an install without a data
// directory; it holds at most max links, forgetting all when full.
type MemoryLinkCache struct {
	mu  sync.Mutex
	max int
	m   map[string]memLink
}

type memLink struct {
	val []byte
	at  time.Time
}

// NewMemoryLinkCache returns an empty cache of at most max links.
func NewMemoryLinkCache(max int) *MemoryLinkCache {
	return &MemoryLinkCache{max: max, m: map[string]memLink{}}
}

func (c *MemoryLinkCache) GetLink(_ context.Context, key string) ([]byte, time.Time, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	l, ok := c.m[key]
	return l.val, l.at, ok, nil
}

func (c *MemoryLinkCache) PutLink(_ context.Context, key string, val []byte, at time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= c.max {
		clear(c.m)
	}
	c.m[key] = memLink{val: append([]byte(nil), val...), at: at}
	return nil
}
