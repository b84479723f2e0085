package ingest

import (
	"crypto/sha256"
	"encoding/base32"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/paperbot/paperbot/ingest/sources"
	"github.com/paperbot/paperbot/search"
)

// Catalog is every paper the sources announced, merged by identity, held in
// memory; a Store keeps it on disk. Safe for concurrent use.
type Catalog struct {
	mu      sync.RWMutex
	entries map[string]*Entry // by ID
	byKey   map[string]string // identity key → ID
}

// NewCatalog returns a catalog holding entries (as a Store loaded them).
func NewCatalog(entries []Entry) *Catalog {
	c := &Catalog{entries: map[string]*Entry{}, byKey: map[string]string{}}
	c.commit(entries)
	return c
}

// Changes counts what a merge did.
type Changes struct {
	// Added are papers first seen; News those of them that are news.
	Added, News int
	// Updated are known papers changed (a new version, another category or
	// source); Withdrawn known papers taken out.
	Updated, Withdrawn int
	// Unchanged records described a known paper exactly as known.
	Unchanged int
}

// Add sums two counts.
func (c Changes) Add(o Changes) Changes {
	return Changes{c.Added + o.Added, c.News + o.News, c.Updated + o.Updated, c.Withdrawn + o.Withdrawn, c.Unchanged + o.Unchanged}
}

// Any reports whether the index needs to change.
func (c Changes) Any() bool { return c.Added+c.Updated+c.Withdrawn > 0 }

// Plan merges recs into the catalog as of now without changing it: it
// returns the entries to store (new or changed, as they will be) and what
// they amount to. Commit them once stored. Records of the same paper (any
// shared arXiv ID, DOI or OpenReview ID; a shared normalised title unless
// the two carry different arXiv IDs or DOIs) become one entry: the first
// one's ID and first-seen time stay, a later version replaces the text, a
// cross-list adds its categories, a withdrawal marks it withdrawn.
func (c *Catalog) Plan(recs []sources.Record, now time.Time) ([]Entry, Changes) {
	return c.PlanFiles(recs, now, nil)
}

// PlanFiles is Plan where files maps normalised titles (sources.TitleKey)
// to the IDs of papers the operator's files hold: a record of a paper the
// catalog does not know whose title is there becomes an entry under the
// file paper's ID, marked InFiles, not news, and counted Unchanged (the
// index already has it).
func (c *Catalog) PlanFiles(recs []sources.Record, now time.Time, files map[string]string) ([]Entry, Changes) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	staged := map[string]*Entry{}
	stagedKey := map[string]string{}
	var order []string
	var ch Changes
	lookup := func(id string) *Entry {
		if e := staged[id]; e != nil {
			return e
		}
		if e := c.entries[id]; e != nil {
			cp := cloneEntry(*e)
			return &cp
		}
		return nil
	}
	for _, r := range recs {
		var e *Entry
		for _, k := range r.Keys() {
			id := stagedKey[k]
			if id == "" {
				id = c.byKey[k]
			}
			if id == "" {
				continue
			}
			cand := lookup(id)
			if strings.HasPrefix(k, "title:") && conflicts(cand.Record, r) {
				continue
			}
			e = cand
			break
		}
		if e == nil {
			if withdrawal(r) {
				continue // never seen, nothing to take out
			}
			e = &Entry{Record: r, FirstSeen: now, Announced: r.Announced}
			if id := files[sources.TitleKey(r.Title)]; id != "" && c.entries[id] == nil && staged[id] == nil {
				// The operator's files hold it: their paper, their ID.
				e.ID, e.InFiles = id, true
				ch.Unchanged++
			} else {
				e.ID, e.News = c.newID(r.Key(), staged), news(r)
				ch.Added++
				if e.News {
					ch.News++
				}
			}
			if e.Announced.IsZero() {
				e.Announced = now
			}
		} else if !update(e, r) {
			ch.Unchanged++
			continue
		} else if e.Withdrawn && withdrawal(r) {
			ch.Withdrawn++
		} else {
			ch.Updated++
		}
		e.Changed = now
		for _, k := range r.Keys() {
			if !slices.Contains(e.Keys, k) {
				e.Keys = append(e.Keys, k)
			}
			stagedKey[k] = e.ID
		}
		for _, cat := range r.Categories {
			if !slices.Contains(e.Categories, cat) {
				e.Categories = append(e.Categories, cat)
			}
		}
		if staged[e.ID] == nil {
			order = append(order, e.ID)
		}
		staged[e.ID] = e
	}
	out := make([]Entry, 0, len(order))
	for _, id := range order {
		out = append(out, *staged[id])
	}
	return out, ch
}

// update applies a record of a known paper to e and reports whether
// anything changed. Older versions than the one held change nothing.
func update(e *Entry, r sources.Record) bool {
	old := e.Record
	changed := false
	if withdrawal(r) {
		if e.Withdrawn {
			return false
		}
		e.Withdrawn = true
		return true
	}
	for _, cat := range r.Categories {
		if !slices.Contains(e.Categories, cat) {
			changed = true
		}
	}
	for _, k := range r.Keys() {
		if !slices.Contains(e.Keys, k) {
			changed = true
		}
	}
	if r.Version != 0 && old.Version != 0 && r.Version < old.Version {
		return changed
	}
	if e.Withdrawn && r.Version <= old.Version {
		return changed // a listing of the withdrawn version does not bring it back
	}
	if e.Withdrawn {
		e.Withdrawn, changed = false, true
	}
	next := merged(old, r)
	if !sameText(old, next) {
		changed = true
	}
	e.Record = next
	return changed
}

// merged is r with the identifiers and fields old had and r lacks.
func merged(old, r sources.Record) sources.Record {
	fill := func(dst *string, v string) {
		if *dst == "" {
			*dst = v
		}
	}
	fill(&r.ArXivID, old.ArXivID)
	fill(&r.DOI, old.DOI)
	fill(&r.OpenReviewID, old.OpenReviewID)
	fill(&r.Title, old.Title)
	fill(&r.Abstract, old.Abstract)
	fill(&r.URL, old.URL)
	fill(&r.Venue, old.Venue)
	fill(&r.VenueID, old.VenueID)
	if len(r.Authors) == 0 {
		r.Authors = old.Authors
	}
	if r.Version == 0 {
		r.Version = old.Version
	}
	if r.Submitted.IsZero() {
		r.Submitted = old.Submitted
	}
	// The arXiv identity outlives the source that last spoke: an
	// OpenReview listing of an arXiv paper keeps its arXiv link.
	if old.ArXivID != "" && strings.HasPrefix(old.URL, "https://arxiv.org/") {
		r.URL = old.URL
	}
	return r
}

func sameText(a, b sources.Record) bool {
	return a.Title == b.Title && a.Abstract == b.Abstract && a.Version == b.Version &&
		slices.Equal(a.Authors, b.Authors) && a.Venue == b.Venue && a.DOI == b.DOI && a.ArXivID == b.ArXivID
}

// conflicts reports whether two records that share a title carry identifiers
// that say they are different papers.
func conflicts(a, b sources.Record) bool {
	return a.ArXivID != "" && b.ArXivID != "" && a.ArXivID != b.ArXivID ||
		a.DOI != "" && b.DOI != "" && a.DOI != b.DOI
}

// Commit makes planned entries part of the catalog, after a Store saved them.
func (c *Catalog) Commit(entries []Entry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.commit(entries)
}

func (c *Catalog) commit(entries []Entry) {
	for _, e := range entries {
		cp := cloneEntry(e)
		c.entries[e.ID] = &cp
		for _, k := range e.Keys {
			c.byKey[k] = e.ID
		}
	}
}

// idEncoding is the alphabet of paper IDs (search/corpus): lower-case
// Crockford base32.
var idEncoding = base32.NewEncoding("0123456789abcdefghjkmnpqrstvwxyz").WithPadding(base32.NoPadding)

// newID derives a paper ID from the paper's identity key, taking the next
// hash window on a collision, so it is stable for a given first key.
func (c *Catalog) newID(key string, staged map[string]*Entry) string {
	for n := 0; ; n++ {
		sum := sha256.Sum256([]byte("ingest:" + key + "#" + strconv.Itoa(n)))
		id := idEncoding.EncodeToString(sum[:])[:search.IDLen]
		if c.entries[id] == nil && staged[id] == nil {
			return id
		}
	}
}

// Len is the number of entries, withdrawn ones included.
func (c *Catalog) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.entries)
}

// Entries returns copies of every entry in ID order.
func (c *Catalog) Entries() []Entry {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]Entry, 0, len(c.entries))
	for _, e := range c.entries {
		out = append(out, cloneEntry(*e))
	}
	slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// Knows reports whether any of r's identity keys names a catalog entry.
func (c *Catalog) Knows(r sources.Record) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	for _, k := range r.Keys() {
		if c.byKey[k] != "" {
			return true
		}
	}
	return false
}

// Lookup returns the entry a key (arxiv:2609.26811, doi:..., an ID) names.
func (c *Catalog) Lookup(key string) (Entry, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	id := key
	if v, ok := c.byKey[key]; ok {
		id = v
	}
	e, ok := c.entries[id]
	if !ok {
		return Entry{}, false
	}
	return cloneEntry(*e), true
}

// FirstSeen returns, for those of ids that are news papers of the catalog
// still in the index, when paperbot first saw them.
func (c *Catalog) FirstSeen(ids []string) map[string]time.Time {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make(map[string]time.Time, len(ids))
	for _, id := range ids {
		if e := c.entries[id]; e != nil && e.News && !e.Withdrawn {
			out[id] = e.FirstSeen
		}
	}
	return out
}

// AddedSince counts the news papers first seen at or after t.
func (c *Catalog) AddedSince(t time.Time) int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	n := 0
	for _, e := range c.entries {
		if e.News && !e.Withdrawn && !e.FirstSeen.Before(t) {
			n++
		}
	}
	return n
}

func cloneEntry(e Entry) Entry {
	e.Keys = slices.Clone(e.Keys)
	e.Categories = slices.Clone(e.Categories)
	e.Record.Authors = slices.Clone(e.Record.Authors)
	e.Record.Categories = slices.Clone(e.Record.Categories)
	e.Record.Keywords = slices.Clone(e.Record.Keywords)
	return e
}
