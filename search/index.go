package search

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/blevesearch/bleve/v2"

	"github.com/paperbot/paperbot/search/query"
	"github.com/paperbot/paperbot/search/semantic"
)

// Options configure Open.
type Options struct {
	// Dir holds the persistent index; "" keeps the index in memory. The
	// index in Dir is reused while the corpus hash is unchanged, changed in
	// place when a few papers differ, and rebuilt beside the live one
	// otherwise. One process at a time may use a Dir.
	Dir string
	// Progress, if set, is called after each indexed batch with the papers
	// done so far and the total (for a change in place, the papers changed).
	// It is not called when an index is reused.
	Progress func(done, total int)
	// Source is the caller's stamp of where the corpus was read from,
	// recorded with the index and returned by Index.Source: a later start
	// can tell from it that the files are unchanged and open the index with
	// OpenDir, reading no corpus. nil keeps the recorded stamp.
	Source []byte
	// BatchSize is the number of papers per index batch; 0 means 1,000.
	BatchSize int
	// Tuning overrides the ranking parameters (nil: DefaultTuning), for
	// evaluation.
	Tuning *Tuning
	// Embedder makes the meaning vectors of papers and queries; nil uses
	// the static model embedded in the binary. An index whose vectors
	// another model made is rebuilt by Open, and searched on words alone
	// by OpenDir.
	Embedder semantic.Embedder
	// NoMeaning builds the index without vectors: words alone.
	NoMeaning bool
	// MeaningFailed, if set, hears each failure to embed a query (a served
	// model down); the search then answers on words alone.
	MeaningFailed func(error)
	// Release, if set, is called by Close once the index is closed: it
	// frees what the Embedder holds (a served model's vector cache).
	Release func() error
	// Guard, if set, is asked before the index of a different corpus
	// replaces a live one: by Open when Dir holds another corpus's index,
	// and by Reload. An error keeps the live index (Open then fails, Reload
	// changes nothing) and is returned as it is.
	Guard func(live LiveCorpus, next LoadReport) error
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

	meaningFailures atomic.Int64 // queries not embedded (MeaningFailures)
	// served: the caller's Embedder (a served model), not the embedded
	// static one; its default tuning is ServedTuning.
	served bool
}

// state is one corpus with its bleve index and everything derived from it.
// Papers are read from the index (index_record.go); the rest is immutable
// once built, except the record cache.
type state struct {
	bi     bleve.Index
	dir    string // the index directory, "" in memory
	meta   indexMeta
	built  bool // built or changed by this process rather than reopened
	an     analyzers
	vocab  *vocab
	acr    *acronymTable
	stats  rankStats
	tune   Tuning
	syn    synonyms
	filler map[string]bool // stems never distinctive for "more like this"
	cache  *recordCache
	venues []string
	// vecs are the papers' meaning vectors (nil: none); emb makes the
	// query's, and onMeaningFail hears when it cannot.
	vecs          *paperVectors
	emb           semantic.Embedder
	onMeaningFail func(error)
	// memo keeps what queries look up in the index and reuse: per name
	// token its estimated surname count, per pair of tokens whether it is
	// an author's full name (query_names.go), per year its paper count and
	// the venues' first words (query_meta_words.go). Keys are prefixed by
	// kind.
	memo *sync.Map
}

const opOpen = "open index"

// Open indexes c (or reopens the index of c in opts.Dir) and returns an
// Index ready for queries. Cancelling ctx stops a build; an interrupted build
// leaves any previous index in opts.Dir intact.
func Open(ctx context.Context, c Papers, opts Options) (*Index, error) {
	if noPapers(c) {
		return nil, &Error{Op: opOpen, Kind: Invalid, Msg: "no corpus to index"}
	}
	if opts.BatchSize <= 0 {
		opts.BatchSize = defaultBatchSize
	}
	served := opts.Embedder != nil && !opts.NoMeaning
	opts, err := resolveEmbedder(opts)
	if err != nil {
		return nil, err
	}
	man, err := manifestOf(c)
	if err != nil {
		return nil, err
	}
	ix := &Index{opts: opts, served: served}
	if opts.Dir != "" {
		unlock, err := lockDir(opts.Dir)
		if err != nil {
			return nil, err
		}
		ix.unlock = unlock
	}
	st, err := ix.openState(ctx, c, man, ix.opts, true)
	if err == nil {
		ix.configure(st)
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

// Reload replaces the corpus. A corpus that differs from the live one by a
// few papers is applied in place, in one atomic batch (see Apply);
// otherwise the new index is built beside the live one, which keeps
// answering until the new one is swapped in atomically. On error the live
// index stays. Reloading an unchanged corpus does nothing.
func (ix *Index) Reload(ctx context.Context, c Papers) error {
	return ix.ReloadStamped(ctx, c, nil)
}

// ReloadStamped is Reload recording source as the new corpus's
// Options.Source (nil keeps the recorded one).
func (ix *Index) ReloadStamped(ctx context.Context, c Papers, source []byte) error {
	if noPapers(c) {
		return &Error{Op: "reload index", Kind: Invalid, Msg: "no corpus to index"}
	}
	cur, done, err := ix.changing()
	if err != nil {
		return err
	}
	defer done()
	man, err := manifestOf(c)
	if err != nil {
		return err
	}
	opts := ix.opts
	if source != nil {
		opts.Source = source
	}
	if cur.dir != "" {
		// The live index, as it is, with a new stamp, or changed in place.
		st, err := reuseLive(ctx, cur, c, man, opts)
		if st == cur || err != nil {
			return err
		}
		if st != nil {
			return ix.swap(st, false)
		}
	} else if man.hash() == cur.meta.Hash {
		return nil
	} else if ix.opts.Guard != nil {
		if err := ix.opts.Guard(cur.liveCorpus(), c.Report()); err != nil {
			return err
		}
	}
	inheritFirstSeen(man, cur)
	st, err := ix.openState(ctx, c, man, opts, false)
	if err != nil {
		return err
	}
	return ix.swap(st, true)
}

// swap makes st live. closeOld is false when st shares the old state's
// bleve index (changed in place).
func (ix *Index) swap(st *state, closeOld bool) error {
	ix.configure(st)
	ix.mu.Lock()
	old := ix.st // not nil: Close waits for the reload lock
	ix.st = st
	ix.mu.Unlock()
	var err error
	if closeOld {
		err = old.close()
	}
	if st.dir != "" {
		removeOtherIndexes(ix.opts.Dir, st.dir)
	}
	return err
}

// configure gives a state the index's tuning and query embedder.
func (ix *Index) configure(st *state) {
	st.tune = ix.tuning()
	st.emb = ix.opts.Embedder
	st.onMeaningFail = func(err error) {
		ix.meaningFailures.Add(1)
		if ix.opts.MeaningFailed != nil {
			ix.opts.MeaningFailed(err)
		}
	}
}

// MeaningFailures counts the queries answered on words alone because the
// Embedder failed (a served model down), since Open.
func (ix *Index) MeaningFailures() int64 { return ix.meaningFailures.Load() }

// resolveEmbedder fills in opts.Embedder (the embedded model unless one is
// given) once, so that every build and search of the index uses the same:
// nil with NoMeaning.
func resolveEmbedder(opts Options) (Options, error) {
	emb, err := embedderOf(opts)
	if err != nil {
		return opts, &Error{Op: opOpen, Kind: Internal, Msg: "the embedded sentence model cannot be read", Err: err}
	}
	opts.Embedder, opts.NoMeaning = emb, emb == nil
	return opts, nil
}

func (ix *Index) tuning() Tuning {
	switch {
	case ix.opts.Tuning != nil:
		return *ix.opts.Tuning
	case ix.served:
		return ServedTuning()
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
	if ix.opts.Release != nil {
		err = errors.Join(err, ix.opts.Release())
	}
	return err
}

// Built reports whether the live index was built or changed by this process
// (true) or reopened from Options.Dir as it was (false).
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
	return ix.st.meta.Hash
}

// Source returns the Options.Source recorded with the live index: the
// caller's stamp of the files its corpus was read from.
func (ix *Index) Source() []byte {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.st == nil {
		return nil
	}
	return slices.Clone(ix.st.meta.Source)
}

// Get returns the paper with the given ID (case-insensitive), or an error of
// kind NotFound.
func (ix *Index) Get(id string) (Paper, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.st == nil {
		return Paper{}, errClosed
	}
	r, err := ix.st.paper("get paper", id)
	if err != nil {
		return Paper{}, err
	}
	return r.Paper, nil
}

// paper returns the record of paper id for operation op: an error of kind
// NotFound when there is none.
func (s *state) paper(op, id string) (*record, error) {
	r, ok, err := s.record(id)
	if err != nil {
		return nil, &Error{Op: op, Kind: Internal, Err: err}
	}
	if !ok {
		return nil, notFound(id)
	}
	return r, nil
}

func notFound(id string) error {
	return &Error{Op: "get paper", Kind: NotFound, Msg: fmt.Sprintf("no paper has the ID %q; IDs are shown next to each search result", query.Excerpt(id))}
}

// Stats describes the live corpus.
func (ix *Index) Stats() Stats {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.st == nil {
		return Stats{}
	}
	return Stats{Papers: ix.st.meta.Papers, Venues: slices.Clone(ix.st.venues)}
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

// liveCorpus describes s for Options.Guard.
func (s *state) liveCorpus() LiveCorpus {
	return LiveCorpus{Papers: s.meta.Papers, Skipped: s.meta.Skipped}
}

func (s *state) close() error {
	if err := s.bi.Close(); err != nil {
		return &Error{Op: "close index", Kind: Internal, Err: err}
	}
	return nil
}

// newState opens search over a bleve index of papers and its index-time
// data (index_meta.go). It reads no paper: only the metadata, the sample's
// 3-gram table and the term dictionaries.
func newState(bi bleve.Index, dir string, built bool) (*state, error) {
	s := &state{bi: bi, dir: dir, built: built, cache: newRecordCache(recordCacheSize), memo: &sync.Map{}}
	var err error
	if s.an, err = newAnalyzers(bi.Mapping()); err != nil {
		return nil, err
	}
	m, ok, err := readMeta(bi)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("the index has no paperbot %s metadata", mappingVersion)
	}
	s.meta = m
	if s.vecs, err = readVectors(bi, dir, m); err != nil {
		return nil, err
	}
	gramDF, err := readGrams(bi)
	if err != nil {
		return nil, err
	}
	s.stats = newRankStats(m.Sample, gramDF, m.Papers, indexedFields(bi.Mapping()))
	s.vocab = newVocab(bi, m.Papers)
	s.venues = m.venues()
	s.acr = newAcronymTable(s.an.text, m.acronymPairs())
	s.syn = newSynonyms(s.an.text)
	s.filler = fillerStems(s.an.text)
	// The general-English tables take ~30 ms to build once per process:
	// build them while the first question is still being typed.
	go warmEnglish()
	return s, nil
}

// changing starts a change of the live index (Reload, Apply, SetSource):
// one at a time. It returns the live state and the function that ends the
// change, or errClosed.
func (ix *Index) changing() (*state, func(), error) {
	ix.reload.Lock()
	ix.mu.RLock()
	cur := ix.st
	ix.mu.RUnlock()
	if cur == nil {
		ix.reload.Unlock()
		return nil, nil, errClosed
	}
	return cur, ix.reload.Unlock, nil
}
