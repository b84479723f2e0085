package search

import (
	"container/list"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/blevesearch/bleve/v2"
	index "github.com/blevesearch/bleve_index_api"
)

// Papers live in the index as stored records (fieldRecord), not in memory:
// a search reads the records of its hits with them, and a bounded cache
// keeps the hot ones decoded with their analysed text.

// record is one paper read from the index, with its analysed text computed
// on first use (see state.doc).
type record struct {
	Paper
	text atomic.Pointer[docText]
}

// storedPaper is the record's encoding: the paper with its Source, which
// Paper leaves out of JSON.
type storedPaper struct {
	Paper
	Source string `json:"source,omitempty"`
}

func encodeRecord(p *Paper) ([]byte, error) {
	return json.Marshal(storedPaper{Paper: *p, Source: p.Source})
}

func decodeRecord(b []byte) (*record, error) {
	var sp storedPaper
	if err := json.Unmarshal(b, &sp); err != nil {
		return nil, fmt.Errorf("decode paper record: %w", err)
	}
	r := &record{Paper: sp.Paper}
	r.Source = sp.Source
	return r, nil
}

// recordCacheSize bounds the decoded records kept per index: a few
// hundred queries' candidates, some megabytes whatever the corpus size.
const recordCacheSize = 2048

// recordCache is an LRU of decoded records by paper ID. Safe for
// concurrent use.
type recordCache struct {
	mu    sync.Mutex
	max   int
	order *list.List // of *record, most recent first
	byID  map[string]*list.Element
}

func newRecordCache(max int) *recordCache {
	return &recordCache{max: max, order: list.New(), byID: map[string]*list.Element{}}
}

func (c *recordCache) get(id string) (*record, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byID[id]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*record), true
}

// add keeps r unless a record of the same ID is cached, and returns the
// cached one: callers racing on a cold paper share one record.
func (c *recordCache) add(r *record) *record {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byID[r.ID]; ok {
		c.order.MoveToFront(e)
		return e.Value.(*record)
	}
	c.byID[r.ID] = c.order.PushFront(r)
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byID, last.Value.(*record).ID)
	}
	return r
}

// hitRecord returns the record of a search hit, from the cache or from the
// stored field the search loaded.
func (s *state) hitRecord(id string, fields map[string]any) (*record, error) {
	if r, ok := s.cache.get(id); ok {
		return r, nil
	}
	b, ok := fields[fieldRecord].(string)
	if !ok {
		return nil, fmt.Errorf("index has no record of paper %q", id)
	}
	r, err := decodeRecord([]byte(b))
	if err != nil {
		return nil, err
	}
	return s.cache.add(r), nil
}

// record returns the paper with the given ID, trying it as given, then
// lower-cased (IDs are typed in any case); ok is false when there is none.
func (s *state) record(id string) (*record, bool, error) {
	id = strings.TrimSpace(id)
	for i, try := range []string{id, strings.ToLower(id)} {
		if i == 1 && try == id {
			break
		}
		if r, ok := s.cache.get(try); ok {
			return r, true, nil
		}
		b, err := storedRecord(s.bi, try)
		if err != nil {
			return nil, false, err
		}
		if b == nil {
			continue
		}
		r, err := decodeRecord(b)
		if err != nil {
			return nil, false, err
		}
		return s.cache.add(r), true, nil
	}
	return nil, false, nil
}

// storedRecord reads the encoded record of id from bi; nil when bi has no
// such paper.
func storedRecord(bi bleve.Index, id string) ([]byte, error) {
	if id == "" {
		return nil, nil
	}
	d, err := bi.Document(id)
	if err != nil {
		return nil, fmt.Errorf("read paper %q: %w", id, err)
	}
	if d == nil {
		return nil, nil
	}
	var out []byte
	d.VisitFields(func(f index.Field) {
		if f.Name() == fieldRecord {
			out = append([]byte(nil), f.Value()...)
		}
	})
	if out == nil {
		return nil, fmt.Errorf("index has no record of paper %q", id)
	}
	return out, nil
}
