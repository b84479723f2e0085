package search

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/blevesearch/bleve/v2"
)

// Options configure Open.
type Options struct {
	// Dir holds the persistent index; "" keeps the index in memory. An index
	// in Dir is reused while the corpus hash is unchanged and rebuilt beside
	// the live one otherwise. One process at a time may use a Dir.
	Dir string
	// Progress, if set, is called after each indexed batch with the papers
	// done so far and the total. It is not called when an index is reused.
	Progress func(done, total int)
	// BatchSize is the number of papers per index batch; 0 means 1,000.
	BatchSize int
	// Tuning overrides the ranking parameters (nil: DefaultTuning), for
	// evaluation.
	Tuning *Tuning
	// Guard, if set, is asked before the index of a different corpus
	// replaces a live one: by Open when Dir holds another corpus's index,
	// and by Reload. An error keeps the live index (Open then fails, Reload
	// changes nothing) and is returned as it is.
	Guard func(live LiveCorpus, next *Corpus) error
}

const defaultBatchSize = 1000

// Index answers searches over one corpus. All methods are safe for
// concurrent use; Reload swaps in a new corpus while searches continue.
type Index struct {
	opts   Options
	reload sync.Mutex // one Reload at a time

	mu sync.RWMutex
	st *state // nil once closed

	unlock func() error // releases Options.Dir; nil in memory
}

// state is one corpus with its bleve index and everything derived from it.
// Immutable once built, except the lazily filled docs cache.
type state struct {
	bi      bleve.Index
	dir     string // the index directory, "" in memory
	hash    string
	skipped int  // records skipped loading the corpus (see LiveCorpus)
	built   bool // built by this process rather than reopened
	papers  []Paper
	byID    map[string]int
	byFold  map[string]int // lower-cased IDs, for IDs typed in another case
	an      analyzers
	vocab   *vocab
	acr     *acronymTable
	stats   rankStats
	tune    Tuning
	syn     synonyms
	filler  map[string]bool // stems never distinctive for "more like this"
	docs    []atomic.Pointer[docText]
	venues  []string
}

const opOpen = "open index"

// Open indexes c (or reopens the index of c in opts.Dir) and returns an
// Index ready for queries. Cancelling ctx stops a build; an interrupted build
// leaves any previous index in opts.Dir intact.
func Open(ctx context.Context, c *Corpus, opts Options) (*Index, error) {
	if c == nil {
		return nil, &Error{Op: opOpen, Kind: Invalid, Msg: "no corpus to index"}
	}
	if opts.BatchSize <= 0 {
		opts.BatchSize = defaultBatchSize
	}
	ix := &Index{opts: opts}
	if opts.Dir != "" {
		unlock, err := lockDir(opts.Dir)
		if err != nil {
			return nil, err
		}
		ix.unlock = unlock
	}
	st, err := ix.openState(ctx, c)
	if err == nil {
		st.tune = ix.tuning()
	}
	if err != nil {
		if ix.unlock != nil {
			_ = ix.unlock()
		}
		return nil, err
	}
	if st.dir != "" {
		removeOtherIndexes(opts.Dir, st.dir)
	}
	ix.st = st
	return ix, nil
}

// Reload replaces the corpus. The new index is built beside the live one,
// which keeps answering until the new one is swapped in atomically; on error
// the live index stays. Reloading an unchanged corpus does nothing.
func (ix *Index) Reload(ctx context.Context, c *Corpus) error {
	if c == nil {
		return &Error{Op: "reload index", Kind: Invalid, Msg: "no corpus to index"}
	}
	ix.reload.Lock()
	defer ix.reload.Unlock()
	ix.mu.RLock()
	cur := ix.st
	ix.mu.RUnlock()
	if cur == nil {
		return errClosed
	}
	if c.Hash() == cur.hash {
		return nil
	}
	if ix.opts.Guard != nil {
		if err := ix.opts.Guard(LiveCorpus{Papers: len(cur.papers), Skipped: cur.skipped}, c); err != nil {
			return err
		}
	}
	st, err := ix.openState(ctx, c)
	if err != nil {
		return err
	}
	st.tune = ix.tuning()
	ix.mu.Lock()
	old := ix.st // not nil: Close waits for the reload lock
	ix.st = st
	ix.mu.Unlock()
	err = old.close()
	if st.dir != "" {
		removeOtherIndexes(ix.opts.Dir, st.dir)
	}
	return err
}

func (ix *Index) tuning() Tuning {
	if ix.opts.Tuning != nil {
		return *ix.opts.Tuning
	}
	return DefaultTuning()
}

var errClosed = &Error{Op: "search", Kind: Internal, Msg: "the index is closed"}

// Close releases the index. Searches already running finish first; later
// calls fail.
func (ix *Index) Close() error {
	ix.reload.Lock()
	defer ix.reload.Unlock()
	ix.mu.Lock()
	st := ix.st
	ix.st = nil
	ix.mu.Unlock()
	if st == nil {
		return nil
	}
	err := st.close()
	if ix.unlock != nil {
		err = errors.Join(err, ix.unlock())
	}
	return err
}

// Built reports whether the live index was built by this process (true) or
// reopened from Options.Dir because the corpus had not changed (false).
func (ix *Index) Built() bool {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.st != nil && ix.st.built
}

// CorpusHash returns the Corpus.Hash of the live corpus, "" once closed.
func (ix *Index) CorpusHash() string {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.st == nil {
		return ""
	}
	return ix.st.hash
}

// Get returns the paper with the given ID (case-insensitive), or an error of
// kind NotFound.
func (ix *Index) Get(id string) (Paper, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.st == nil {
		return Paper{}, errClosed
	}
	i, ok := ix.st.lookup(id)
	if !ok {
		return Paper{}, notFound(id)
	}
	return ix.st.papers[i], nil
}

func notFound(id string) error {
	return &Error{Op: "get paper", Kind: NotFound, Msg: fmt.Sprintf("no paper has the ID %q; IDs are shown next to each search result", excerpt(id))}
}

// Stats describes the live corpus.
func (ix *Index) Stats() Stats {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.st == nil {
		return Stats{}
	}
	return Stats{Papers: len(ix.st.papers), Venues: slices.Clone(ix.st.venues)}
}

// live returns the current state under the read lock; the caller must call
// the returned release when done with it.
func (ix *Index) live() (*state, func(), error) {
	ix.mu.RLock()
	if ix.st == nil {
		ix.mu.RUnlock()
		return nil, nil, errClosed
	}
	return ix.st, ix.mu.RUnlock, nil
}

func (s *state) lookup(id string) (int, bool) {
	id = strings.TrimSpace(id)
	if i, ok := s.byID[id]; ok {
		return i, true
	}
	i, ok := s.byFold[strings.ToLower(id)]
	return i, ok
}

func (s *state) close() error {
	if err := s.bi.Close(); err != nil {
		return &Error{Op: "close index", Kind: Internal, Err: err}
	}
	return nil
}

// newState derives everything search needs from an open bleve index of papers.
func newState(bi bleve.Index, papers []Paper, hash, dir string, built bool) (*state, error) {
	s := &state{
		bi: bi, dir: dir, hash: hash, built: built,
		papers: papers,
		byID:   make(map[string]int, len(papers)),
		byFold: make(map[string]int, len(papers)),
		docs:   make([]atomic.Pointer[docText], len(papers)),
	}
	var err error
	if s.an, err = newAnalyzers(bi.Mapping()); err != nil {
		return nil, err
	}
	if s.vocab, err = loadVocab(bi, len(papers)); err != nil {
		return nil, err
	}
	venues := map[string]bool{}
	for i, p := range papers {
		s.byID[p.ID] = i
		s.byFold[strings.ToLower(p.ID)] = i
		if p.Venue != "" && !venues[p.Venue] {
			venues[p.Venue] = true
			s.venues = append(s.venues, p.Venue)
		}
	}
	slices.Sort(s.venues)
	s.acr = newAcronymTable(s.an.text, mineAcronyms(papers))
	go s.rankStats() // warm, so the first query does not pay for it
	s.syn = newSynonyms(s.an.text)
	s.filler = fillerStems(s.an.text)
	return s, nil
}
