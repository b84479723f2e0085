package search

import (
	"context"
	"fmt"
	"slices"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
)

// openState opens or builds the index of c according to ix.opts.
func (ix *Index) openState(ctx context.Context, c *Corpus) (*state, error) {
	papers := slices.Clone(c.Papers)
	seen := make(map[string]bool, len(papers))
	for _, p := range papers {
		if p.ID == "" || seen[p.ID] {
			return nil, &Error{Op: opOpen, Kind: Invalid, Msg: fmt.Sprintf("the corpus has a missing or repeated paper ID %q (%s)", p.ID, p.Source)}
		}
		seen[p.ID] = true
	}
	hash := c.Hash()
	if ix.opts.Dir != "" {
		st, err := openDir(ctx, ix.opts, c, papers, hash)
		if st != nil {
			st.skipped = readSkipped(st.dir)
		}
		return st, err
	}
	bi, err := buildMemory(ctx, papers, ix.opts)
	if err != nil {
		return nil, err
	}
	st, err := newState(bi, papers, hash, "", true)
	if err != nil {
		_ = bi.Close()
		return nil, &Error{Op: opOpen, Kind: Internal, Err: err}
	}
	st.skipped = c.Skipped
	return st, nil
}

// buildMemory indexes papers into a new in-memory scorch index (scorch, not
// bleve's NewMemOnly, which scores with TF-IDF instead of BM25). It is also
// the first step of a build on disk: without a persister waiting on every
// batch it runs several times faster, and the result is copied out at once.
func buildMemory(ctx context.Context, papers []Paper, opts Options) (bleve.Index, error) {
	m, err := newMapping()
	if err != nil {
		return nil, &Error{Op: opOpen, Kind: Internal, Err: err}
	}
	bi, err := bleve.NewUsing("", m, scorch.Name, scorch.Name, nil)
	if err != nil {
		return nil, &Error{Op: opOpen, Kind: Internal, Err: err}
	}
	if err := fill(ctx, bi, papers, opts); err != nil {
		_ = bi.Close()
		return nil, err
	}
	return bi, nil
}

// fill indexes papers in batches, reporting progress and stopping when ctx
// is cancelled.
func fill(ctx context.Context, bi bleve.Index, papers []Paper, opts Options) error {
	total := len(papers)
	if opts.Progress != nil {
		opts.Progress(0, total)
	}
	size := opts.BatchSize
	if size <= 0 {
		size = defaultBatchSize
	}
	for start := 0; start < total; start += size {
		if err := ctx.Err(); err != nil {
			return &Error{Op: opOpen, Kind: Internal, Msg: "indexing was interrupted", Err: err}
		}
		end := min(start+size, total)
		b := bi.NewBatch()
		for i := start; i < end; i++ {
			if err := b.Index(papers[i].ID, paperDoc(&papers[i])); err != nil {
				return &Error{Op: opOpen, Kind: Internal, Err: fmt.Errorf("index paper %s: %w", papers[i].ID, err)}
			}
		}
		if err := bi.Batch(b); err != nil {
			return &Error{Op: opOpen, Kind: Internal, Err: fmt.Errorf("index batch: %w", err)}
		}
		if opts.Progress != nil {
			opts.Progress(end, total)
		}
	}
	return nil
}
