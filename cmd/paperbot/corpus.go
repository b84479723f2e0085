package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"time"

	"github.com/paperbot/paperbot/ingest"
	"github.com/paperbot/paperbot/search"
	"github.com/paperbot/paperbot/seeds"
)

// loadCorpus reads PAPERBOT_CORPUS, or the embedded seeds when it is empty.
// It writes nothing (check and version only look).
func loadCorpus(cfg Config) (*search.Corpus, error) {
	if patterns := cfg.CorpusPatterns(); len(patterns) > 0 {
		return search.LoadFilesLimited(patterns, search.Limits{MaxAbstract: cfg.MaxAbstract})
	}
	return search.LoadFS(seeds.FS, "*.txt")
}

// loadCorpusCached is loadCorpus for a process about to serve: with a data
// directory, a snapshot of the loaded corpus is kept beside the index, so a
// start or reload with unchanged files reads and cleans no corpus file (see
// search.LoadFilesCached). The catalog's fetched papers (cat, nil for none)
// are added to the files'.
func loadCorpusCached(cfg Config, cat *ingest.Catalog) (*search.Corpus, error) {
	patterns := cfg.CorpusPatterns()
	var c *search.Corpus
	var err error
	if len(patterns) == 0 || cfg.DataDir == "" {
		c, err = loadCorpus(cfg)
	} else {
		c, _, err = search.LoadFilesCached(patterns, search.Limits{MaxAbstract: cfg.MaxAbstract}, indexDir(cfg))
	}
	if err != nil || cat == nil {
		return c, err
	}
	return cat.Corpus(c), nil
}

// openIndex loads the corpus and opens (or builds) its index: in memory
// without a data directory, persistent and rebuilt only on change with one.
// Progress goes to progressOut once a build takes more than a moment (nil:
// no progress). An index that would lose papers is refused (see
// shrinkGuard) and the one in the data directory kept.
func openIndex(ctx context.Context, cfg Config, log *slog.Logger, progressOut io.Writer) (*search.Index, *search.Corpus, error) {
	cat, err := loadCatalog(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	return openIndexGuarded(ctx, cfg, log, progressOut, shrinkGuard(cfg.AllowShrink, log), cat)
}

// openIndexGuarded is openIndex with the guard of search.Options, over the
// files and the catalog cat (nil for none).
func openIndexGuarded(ctx context.Context, cfg Config, log *slog.Logger, progressOut io.Writer,
	guard func(search.LiveCorpus, *search.Corpus) error, cat *ingest.Catalog) (*search.Index, *search.Corpus, error) {
	corpus, err := loadCorpusCached(cfg, cat)
	if err != nil {
		return nil, nil, err
	}
	if corpus.Skipped > 0 || len(corpus.Problems) > 0 {
		log.Info("corpus loaded with problems", "skipped", corpus.Skipped, "files", strings.Join(corpus.Files, ","), "first_problems", firstN(corpus.Problems, 3))
	}
	if corpus.Duplicates > 0 {
		log.Info("duplicate papers indexed once", "duplicates", corpus.Duplicates)
	}
	bar := newProgressBar(progressOut, time.Now)
	ix, err := search.Open(ctx, corpus, search.Options{Dir: indexDir(cfg), Progress: bar.update, Guard: guard})
	bar.finish()
	if err != nil {
		return nil, nil, err
	}
	return ix, corpus, nil
}

func indexDir(cfg Config) string {
	if cfg.DataDir == "" {
		return ""
	}
	return filepath.Join(cfg.DataDir, "index")
}

// progressOut is where a build's progress bar goes: w when it is a
// terminal, nowhere otherwise (a bar redrawn with \r is noise in a log).
func progressOut(w io.Writer) io.Writer {
	if isTerminal(w) {
		return w
	}
	return nil
}

func firstN(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// progressBar draws a one-line bar, but only once a build has taken more
// than a moment, so small corpora stay quiet.
type progressBar struct {
	w       io.Writer
	now     func() time.Time
	start   time.Time
	drawn   bool
	lastPct int
}

const progressDelay = 300 * time.Millisecond

func newProgressBar(w io.Writer, now func() time.Time) *progressBar {
	return &progressBar{w: w, now: now, start: now(), lastPct: -1}
}

func (p *progressBar) update(done, total int) {
	if p.w == nil || total <= 0 || (!p.drawn && p.now().Sub(p.start) < progressDelay) {
		return
	}
	pct := done * 100 / total
	if pct == p.lastPct {
		return
	}
	p.drawn, p.lastPct = true, pct
	const width = 30
	filled := width * done / total
	bar := make([]byte, width)
	for i := range bar {
		if i < filled {
			bar[i] = '#'
		} else {
			bar[i] = '.'
		}
	}
	fmt.Fprintf(p.w, "\rindexing [%s] %3d%% %d/%d papers%s", bar, pct, done, total, p.pace(done, total))
}

// pace is ", N papers/s, T left" once there is a rate to tell, padded so a
// shorter line overwrites a longer one.
func (p *progressBar) pace(done, total int) string {
	elapsed := p.now().Sub(p.start).Seconds()
	if done <= 0 || elapsed <= 0 {
		return ""
	}
	rate := float64(done) / elapsed
	left := time.Duration(float64(total-done) / rate * float64(time.Second)).Round(time.Second)
	return fmt.Sprintf(", %.0f papers/s, %s left   ", rate, left)
}

func (p *progressBar) finish() {
	if p.drawn {
		fmt.Fprintln(p.w)
	}
}
