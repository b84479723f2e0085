package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
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

// loadCorpusStamped is loadCorpus for a process about to index. With a
// data directory the papers wait in a temporary file there, not in memory
// (see search.SpoolFilesStamped), and the stamp of the files read is
// returned, recorded with the index, so that a later start or reload with
// unchanged files reads no corpus file. The stamp is nil without a data
// directory or corpus files. The catalog's fetched papers (cat, nil for
// none) are added to the files' (see ingest.Catalog.Papers). release frees
// the papers once indexed. A bar of the files read goes to progressOut (nil:
// none) once reading takes more than a moment.
func loadCorpusStamped(ctx context.Context, cfg Config, cat *ingest.Catalog, progressOut io.Writer) (papers search.Papers, stamp []byte, release func(), err error) {
	withCatalog := func(p search.Papers) search.Papers {
		if cat != nil {
			return cat.Papers(p)
		}
		return p
	}
	patterns := cfg.CorpusPatterns()
	if len(patterns) == 0 || cfg.DataDir == "" {
		c, err := loadCorpus(cfg)
		if err != nil {
			return nil, nil, nil, err
		}
		return withCatalog(c), nil, func() {}, nil
	}
	if err := os.MkdirAll(cfg.DataDir, 0o755); err != nil {
		return nil, nil, nil, fmt.Errorf("cannot create the data directory: %w", err)
	}
	search.RemoveSpools(cfg.DataDir) // a crashed build's
	bar := newReadingBar(progressOut, time.Now)
	sp, files, err := search.SpoolFilesWatched(ctx, patterns, cfg.limits(), cfg.DataDir, bar.updateBytes)
	bar.finish()
	if err != nil {
		return nil, nil, nil, err
	}
	src, err := json.Marshal(indexSource{Files: files, Skipped: sp.Skipped, Duplicates: sp.Duplicates,
		Problems: firstN(sp.Problems, maxRecordedProblems)})
	if err != nil {
		_ = sp.Close()
		return nil, nil, nil, err
	}
	return withCatalog(sp), src, func() { _ = sp.Close() }, nil
}

// indexSource is what an index records of the load it was built from
// (search.Options.Source): the files' stamp, and what the load reported,
// so a start that loads nothing can report it again.
type indexSource struct {
	Files      json.RawMessage `json:"files"`
	Skipped    int             `json:"skipped"`
	Duplicates int             `json:"duplicates"`
	Problems   []string        `json:"problems,omitempty"`
}

const maxRecordedProblems = 10

// unchangedSource returns what the load recorded in ix reported, when the
// corpus files are unchanged since (nil when they changed, or ix has no
// record of them). A file that had to be hashed to tell is stamped anew in
// ix, so the next start need not read it.
func unchangedSource(ctx context.Context, cfg Config, ix *search.Index, log *slog.Logger) *search.LoadReport {
	var src indexSource
	if json.Unmarshal(ix.Source(), &src) != nil {
		return nil
	}
	ok, fresh := search.SourceUnchanged(src.Files, cfg.CorpusPatterns(), cfg.limits())
	if !ok {
		return nil
	}
	if fresh != nil {
		src.Files = fresh
		if b, err := json.Marshal(src); err == nil {
			if err := ix.SetSource(ctx, b); err != nil {
				log.Warn("could not record the corpus files' new stamp; the next start hashes them again", "err", oneLine(err))
			}
		}
	}
	return &search.LoadReport{Papers: ix.Stats().Papers, Skipped: src.Skipped, Duplicates: src.Duplicates, Problems: src.Problems}
}

func (cfg Config) limits() search.Limits { return search.Limits{MaxAbstract: cfg.MaxAbstract} }

// openIndex opens (or builds) the index of the corpus: in memory without a
// data directory, persistent and changed only on change with one. With a
// data directory whose index was built from files that are unchanged since
// (sizes and times, or content hashes), no corpus file is read: the index
// holds every paper. Progress goes to progressOut once a build takes more
// than a moment (nil: no progress). An index that would lose papers is
// refused (see shrinkGuard) and the one in the data directory kept. The
// report returned says what the load found (skipped records, duplicates,
// problems).
func openIndex(ctx context.Context, cfg Config, log *slog.Logger, progressOut io.Writer) (*search.Index, *search.LoadReport, error) {
	cat, err := loadCatalog(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	return openIndexGuarded(ctx, cfg, log, progressOut, shrinkGuard(cfg.AllowShrink, log), cat)
}

// openIndexGuarded is openIndex with the guard of search.Options, over the
// files and the catalog cat (nil for none). An index reused because the
// files are unchanged holds the catalog's papers as fetches applied them.
func openIndexGuarded(ctx context.Context, cfg Config, log *slog.Logger, progressOut io.Writer,
	guard func(search.LiveCorpus, search.LoadReport) error, cat *ingest.Catalog) (*search.Index, *search.LoadReport, error) {
	dir := indexDir(cfg)
	var base search.Options
	if err := cfg.meaningOptions(ctx, &base, log); err != nil {
		return nil, nil, err
	}
	release := func() {
		if base.Release != nil {
			_ = base.Release()
		}
	}
	if dir != "" && len(cfg.CorpusPatterns()) > 0 {
		opts := base
		opts.Dir, opts.Guard = dir, guard
		keepCache := false // closing an index not reused leaves the cache to the build below
		if base.Release != nil {
			opts.Release = func() error {
				if keepCache {
					return nil
				}
				return base.Release()
			}
		}
		ix, err := search.OpenDir(ctx, opts)
		if err == nil {
			if c := unchangedSource(ctx, cfg, ix, log); c != nil {
				return ix, c, nil
			}
			keepCache = true
			_ = ix.Close()
			keepCache = false
		} else if search.KindOf(err) != search.NotFound {
			release()
			return nil, nil, err
		}
	}
	papers, source, releaseCorpus, err := loadCorpusStamped(ctx, cfg, cat, progressOut)
	if err != nil {
		release()
		return nil, nil, err
	}
	defer releaseCorpus()
	report := papers.Report()
	if report.Skipped > 0 || len(report.Problems) > 0 {
		log.Info("corpus loaded with problems", "skipped", report.Skipped, "files", strings.Join(report.Files, ","), "first_problems", firstN(report.Problems, 3))
	}
	if report.Duplicates > 0 {
		log.Info("duplicate papers indexed once", "duplicates", report.Duplicates)
	}
	bar := newProgressBar(progressOut, time.Now)
	opts := base
	opts.Dir, opts.Progress, opts.Guard, opts.Source = dir, bar.update, guard, source
	ix, err := search.Open(ctx, papers, opts)
	bar.finish()
	if err != nil {
		release()
		return nil, nil, err
	}
	debug.FreeOSMemory() // a serving process need not keep a build's peak for its lifetime
	return ix, &report, nil
}

func indexDir(cfg Config) string {
	if cfg.DataDir == "" {
		return ""
	}
	return filepath.Join(cfg.DataDir, "index")
}

// hasIndex reports whether cfg's data directory holds an index (search
// keeps the name of its live one in CURRENT), asked before opening it: an
// index that was there may lag the catalog (follow.go).
func hasIndex(cfg Config) bool {
	_, err := os.Stat(filepath.Join(indexDir(cfg), "CURRENT"))
	return err == nil
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
	verb    string // "indexing"
	unit    string // "papers", or "MB" of files read
	scale   int    // what one unit counts: 1, or 1<<20 bytes
}

const progressDelay = 300 * time.Millisecond

func newProgressBar(w io.Writer, now func() time.Time) *progressBar {
	return &progressBar{w: w, now: now, start: now(), lastPct: -1, verb: "indexing", unit: "papers", scale: 1}
}

// newReadingBar is a progressBar of the corpus files read, in megabytes.
func newReadingBar(w io.Writer, now func() time.Time) *progressBar {
	p := newProgressBar(w, now)
	p.verb, p.unit, p.scale = "reading corpus", "MB", 1<<20
	return p
}

// updateBytes is update for a bar counting bytes.
func (p *progressBar) updateBytes(read, total int64) { p.update(int(read), int(total)) }

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
	fmt.Fprintf(p.w, "\r%s [%s] %3d%% %d/%d %s%s", p.verb, bar, pct, done/p.scale, total/p.scale, p.unit, p.pace(done, total))
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
	return fmt.Sprintf(", %.0f %s/s, %s left   ", rate/float64(p.scale), p.unit, left)
}

func (p *progressBar) finish() {
	if p.drawn {
		fmt.Fprintln(p.w)
	}
}
