package search

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
)

// openState opens or builds the index of c according to opts. tryLive
// lets a Dir's live index be reused or changed in place (Open); Reload has
// tried that already.
func (ix *Index) openState(ctx context.Context, c Papers, man manifest, opts Options, tryLive bool) (*state, error) {
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

// buildMemory indexes c into a new in-memory scorch index (scorch, not
// bleve's NewMemOnly, which scores with TF-IDF instead of BM25). It is also
// the first step of a build on disk: without a persister waiting on every
// batch it runs several times faster, and the result is copied out at once.
func buildMemory(ctx context.Context, c Papers, man manifest, opts Options) (bleve.Index, error) {
	m, err := newMapping()
	if err != nil {
		return nil, &Error{Op: opOpen, Kind: Internal, Err: err}
	}
	bi, err := bleve.NewUsing("", m, scorch.Name, scorch.Name, nil)
	if err != nil {
		return nil, &Error{Op: opOpen, Kind: Internal, Err: err}
	}
	if err := fill(ctx, bi, "", c, man, opts, 1); err != nil {
		_ = bi.Close()
		return nil, err
	}
	return bi, nil
}

// fill indexes c's papers in batches, with their records and the index-time
// data (index_meta.go) in the last batch, reporting progress and stopping
// when ctx is cancelled. Papers get FirstSeen now unless they have one.
// workers batches are indexed at once: bleve analyses a batch's papers in
// parallel but builds its segment on one core, so two overlap the two. A
// build in memory uses one, which keeps its segments (and so bleve's
// scores, see FACTS.md) the same from run to run.
func fill(ctx context.Context, bi bleve.Index, dir string, c Papers, man manifest, opts Options, workers int) error {
	total := c.Len()
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
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	type job struct {
		b *bleve.Batch
		n int
	}
	jobs := make(chan job)
	var wg sync.WaitGroup
	var mu sync.Mutex // orders progress reports
	done := 0
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				if err := bi.Batch(j.b); err != nil {
					cancel(&Error{Op: opOpen, Kind: Internal, Err: fmt.Errorf("index batch: %w", err)})
					continue
				}
				mu.Lock()
				done += j.n
				if opts.Progress != nil {
					opts.Progress(done, total)
				}
				mu.Unlock()
			}
		}()
	}
	err = produce(ctx, bi, dir, c, man, opts, an, size, func(b *bleve.Batch, n int) {
		select {
		case jobs <- job{b, n}:
		case <-ctx.Done():
		}
	})
	close(jobs)
	wg.Wait()
	if cause := context.Cause(ctx); err == nil && cause != nil && ctx.Err() != nil {
		err = cause
	}
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			err = &Error{Op: opOpen, Kind: Internal, Msg: "indexing was interrupted", Err: err}
		}
		return err
	}
	return nil
}

// produce makes c's batches, the index-time data in the last, and hands
// each to send. The papers are read one at a time: a batch is all of them
// a build holds.
func produce(ctx context.Context, bi bleve.Index, dir string, c Papers, man manifest, opts Options, an analyzers, size int, send func(*bleve.Batch, int)) error {
	total := c.Len()
	mb := newMetaBuilder(an, indexMeta{}, nil)
	vb := newVectorBuilder(opts.Embedder, total)
	step := sampleStep(total)
	now := time.Now().UTC()
	fail := func(err error) error { return &Error{Op: opOpen, Kind: Internal, Err: err} }
	b, n, i := bi.NewBatch(), 0, 0
	err := c.Each(func(pp *Paper) error {
		if err := ctx.Err(); err != nil {
			return context.Cause(ctx)
		}
		p := *pp
		j, ok := man.pos(p.ID)
		if !ok {
			return fail(fmt.Errorf("the corpus gave paper %q on a second reading only", p.ID))
		}
		if p.FirstSeen.IsZero() {
			p.FirstSeen = man[j].firstSeen() // as the index it replaces had it
		}
		if p.FirstSeen.IsZero() {
			p.FirstSeen = now
		}
		man[j].FirstSeen = p.FirstSeen.UnixNano()
		mb.add(&p, 1, i%step == 0)
		vb.add(ctx, &p)
		i++
		if err := indexPaper(b, &p); err != nil {
			return fail(err)
		}
		if n++; n == size && i < total {
			send(b, n)
			b, n = bi.NewBatch(), 0
		}
		return nil
	})
	if err != nil {
		return err
	}
	if i != total {
		return fail(fmt.Errorf("the corpus gave %d papers, not the %d it counted", i, total))
	}
	// The last batch (empty for an empty corpus) carries the index-time data.
	m := mb.finish()
	m.Hash, m.Skipped, m.Source = man.hash(), c.Report().Skipped, opts.Source
	pv := vb.finish(ctx)
	if err := ctx.Err(); err != nil {
		return context.Cause(ctx)
	}
	if _, _, err := setMeta(b, m, mb.gramDF, man, dir, pv); err != nil {
		return fail(err)
	}
	send(b, n)
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
