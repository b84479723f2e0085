package search

import (
	"context"
	"fmt"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
)

// openState opens or builds the index of c according to opts. tryLive
// lets a Dir's live index be reused or changed in place (Open); Reload has
// tried that already.
func (ix *Index) openState(ctx context.Context, c *Corpus, opts Options, tryLive bool) (*state, error) {
	if err := checkIDs(c.Papers); err != nil {
		return nil, err
	}
	man := newManifest(c.Papers)
	if opts.Dir != "" {
		return openDir(ctx, opts, c, man, tryLive)
	}
	bi, err := buildMemory(ctx, c, man, opts)
	if err != nil {
		return nil, err
	}
	st, err := newState(bi, "", true)
	if err != nil {
		_ = bi.Close()
		return nil, &Error{Op: opOpen, Kind: Internal, Err: err}
	}
	return st, nil
}

// checkIDs rejects papers without an ID or with one used twice.
func checkIDs(papers []Paper) error {
	seen := make(map[string]bool, len(papers))
	for _, p := range papers {
		if p.ID == "" || seen[p.ID] {
			return &Error{Op: opOpen, Kind: Invalid, Msg: fmt.Sprintf("the corpus has a missing or repeated paper ID %q (%s)", p.ID, p.Source)}
		}
		seen[p.ID] = true
	}
	return nil
}

// buildMemory indexes c into a new in-memory scorch index (scorch, not
// bleve's NewMemOnly, which scores with TF-IDF instead of BM25). It is also
// the first step of a build on disk: without a persister waiting on every
// batch it runs several times faster, and the result is copied out at once.
func buildMemory(ctx context.Context, c *Corpus, man manifest, opts Options) (bleve.Index, error) {
	m, err := newMapping()
	if err != nil {
		return nil, &Error{Op: opOpen, Kind: Internal, Err: err}
	}
	bi, err := bleve.NewUsing("", m, scorch.Name, scorch.Name, nil)
	if err != nil {
		return nil, &Error{Op: opOpen, Kind: Internal, Err: err}
	}
	if err := fill(ctx, bi, c, man, opts); err != nil {
		_ = bi.Close()
		return nil, err
	}
	return bi, nil
}

// fill indexes c's papers in batches, with their records and the index-time
// data (index_meta.go) in the last batch, reporting progress and stopping
// when ctx is cancelled. Papers get FirstSeen now unless they have one.
func fill(ctx context.Context, bi bleve.Index, c *Corpus, man manifest, opts Options) error {
	papers := c.Papers
	total := len(papers)
	if opts.Progress != nil {
		opts.Progress(0, total)
	}
	size := opts.BatchSize
	if size <= 0 {
		size = defaultBatchSize
	}
	an, err := newAnalyzers(bi.Mapping())
	if err != nil {
		return &Error{Op: opOpen, Kind: Internal, Err: err}
	}
	mb := newMetaBuilder(an.text, indexMeta{}, nil)
	step := sampleStep(total)
	now := time.Now().UTC()
	fail := func(err error) error { return &Error{Op: opOpen, Kind: Internal, Err: err} }
	for start := 0; start == 0 || start < total; start += size { // once at least: the meta
		if err := ctx.Err(); err != nil {
			return &Error{Op: opOpen, Kind: Internal, Msg: "indexing was interrupted", Err: err}
		}
		end := min(start+size, total)
		b := bi.NewBatch()
		for i := start; i < end; i++ {
			p := papers[i]
			if p.FirstSeen.IsZero() {
				p.FirstSeen = now
			}
			mb.add(&p, 1, i%step == 0)
			if err := indexPaper(b, &p); err != nil {
				return fail(err)
			}
		}
		if end == total {
			m := mb.finish()
			m.Hash, m.Skipped, m.Source = man.hash(), c.Skipped, opts.Source
			if err := setMeta(b, m, mb.gramDF, man); err != nil {
				return fail(err)
			}
		}
		if err := bi.Batch(b); err != nil {
			return fail(fmt.Errorf("index batch: %w", err))
		}
		if opts.Progress != nil {
			opts.Progress(end, total)
		}
	}
	return nil
}

// indexPaper adds p, with its record, to a batch.
func indexPaper(b *bleve.Batch, p *Paper) error {
	rec, err := encodeRecord(p)
	if err != nil {
		return fmt.Errorf("encode paper %s: %w", p.ID, err)
	}
	if err := b.Index(p.ID, paperDoc(p, rec)); err != nil {
		return fmt.Errorf("index paper %s: %w", p.ID, err)
	}
	return nil
}
