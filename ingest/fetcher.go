package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"
	_ "time/tzdata" // arXiv's day is counted in America/New_York, on hosts without zoneinfo too

	"github.com/paperbot/paperbot/ingest/sources"
	"github.com/paperbot/paperbot/search"
)

// Config wires a Fetcher. Sources, Client, Store and Catalog are required.
type Config struct {
	Sources Sources
	Client  *sources.Client
	Store   Store
	Catalog *Catalog
	// Now is the clock (default time.Now); tests share it with the Client.
	Now func() time.Time
	Log *slog.Logger // default: discard
	// MaxCatchUp bounds how far back a catch-up after downtime harvests
	// (default 7 days).
	MaxCatchUp time.Duration
	// Backfill is how far back the first run of arXiv (no progress stored)
	// harvests over OAI-PMH before today's feed; 0 takes today's feed only.
	Backfill time.Duration
}

// DefaultMaxCatchUp is Config.MaxCatchUp's default.
const DefaultMaxCatchUp = 7 * 24 * time.Hour

// arXivZone is where arXiv's announcement day is counted (its mailings go
// out at 20:00 US Eastern; the RSS feeds turn over at midnight Eastern).
var arXivZone = mustZone("America/New_York")

func mustZone(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		panic(err) // the zone data is embedded
	}
	return loc
}

// Fetcher runs the configured sources and merges what they announce into
// the catalog. One run at a time; safe for concurrent use.
type Fetcher struct {
	cfg Config
	run sync.Mutex // one run at a time

	mu       sync.Mutex
	progress map[string]Progress
	files    Files // nil: no files to match
}

// Files is the part of search.Index that finds the papers the operator's
// files hold by title.
type Files interface {
	PapersTitled(ctx context.Context, title string) ([]search.Paper, error)
}

// MatchFiles makes later runs look up each paper the catalog does not know
// in ix, by normalised title, before adding it: a paper the files hold is
// recorded under the file paper's ID and stays the file's (Entry.InFiles).
// ix is the index the files were loaded into; its fetched papers are told
// apart by being catalog entries.
func (f *Fetcher) MatchFiles(ix Files) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.files = ix
}

// NewFetcher returns a Fetcher continuing from the stored progress.
func NewFetcher(cfg Config, progress []Progress) (*Fetcher, error) {
	if cfg.Client == nil || cfg.Store == nil || cfg.Catalog == nil {
		return nil, errors.New("ingest: Config needs Client, Store and Catalog")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.MaxCatchUp <= 0 {
		cfg.MaxCatchUp = DefaultMaxCatchUp
	}
	f := &Fetcher{cfg: cfg, progress: map[string]Progress{}}
	for _, p := range progress {
		f.progress[p.Source] = p
	}
	return f, nil
}

// SourceNames lists the sources a Fetcher runs, in order.
func (s Sources) SourceNames() []string {
	var names []string
	if len(s.ArXiv) > 0 {
		names = append(names, KindArXiv)
	}
	for _, v := range s.OpenReview {
		names = append(names, KindOpenReview+":"+v)
	}
	return names
}

// Status returns every configured source's progress, in SourceNames order;
// a source that never ran has only its name.
func (f *Fetcher) Status() []Progress {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []Progress
	for _, name := range f.cfg.Sources.SourceNames() {
		p := f.progress[name]
		p.Source = name
		out = append(out, p)
	}
	return out
}

// Observe takes progress as stored by another process fetching the same
// sources (the replica holding the fetcher lease), so that Status reports
// it. It does nothing while a run is in progress here: this fetcher's own
// progress is then the newer.
func (f *Fetcher) Observe(progress []Progress) {
	if !f.run.TryLock() {
		return
	}
	defer f.run.Unlock()
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, p := range progress {
		f.progress[p.Source] = p
	}
}

func (f *Fetcher) get(name string) Progress {
	f.mu.Lock()
	defer f.mu.Unlock()
	p := f.progress[name]
	p.Source = name
	return p
}

func (f *Fetcher) set(p Progress) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.progress[p.Source] = p
}

// Run runs every configured source once. A failing source does not stop the
// others: its error is recorded in its progress and returned, joined with
// the others'. Changes counts what the run merged, failed sources' pages
// included (what was stored stays stored).
func (f *Fetcher) Run(ctx context.Context) (Changes, error) {
	f.run.Lock()
	defer f.run.Unlock()
	var total Changes
	var errs []error
	if len(f.cfg.Sources.ArXiv) > 0 {
		ch, err := f.runArXiv(ctx)
		total = total.Add(ch)
		errs = append(errs, f.finish(ctx, KindArXiv, ch, err))
	}
	for _, venue := range f.cfg.Sources.OpenReview {
		name := KindOpenReview + ":" + venue
		ch, err := f.runOpenReview(ctx, name, venue)
		total = total.Add(ch)
		errs = append(errs, f.finish(ctx, name, ch, err))
	}
	return total, errors.Join(errs...)
}

// finish records a source's outcome in its progress.
func (f *Fetcher) finish(ctx context.Context, name string, ch Changes, err error) error {
	p := f.get(name)
	now := f.cfg.Now()
	if err != nil {
		if ctx.Err() != nil {
			return err // shutting down: not the source's failure
		}
		p.LastError, p.LastErrorAt = err.Error(), now
		f.cfg.Log.Warn("source failed", "source", name, "err", err, "added", ch.Added)
	} else {
		p.LastSuccess, p.LastError, p.LastErrorAt, p.LastChanges = now, "", time.Time{}, ch
		f.cfg.Log.Info("source fetched", "source", name, "added", ch.Added, "news", ch.News,
			"updated", ch.Updated, "withdrawn", ch.Withdrawn, "unchanged", ch.Unchanged)
	}
	if serr := f.save(context.WithoutCancel(ctx), nil, p); serr != nil {
		return errors.Join(err, serr)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// apply merges one page of records and stores it with the progress after it.
func (f *Fetcher) apply(ctx context.Context, recs []sources.Record, p Progress) (Changes, error) {
	files, err := f.inFiles(ctx, recs)
	if err != nil {
		return Changes{}, err
	}
	entries, ch := f.cfg.Catalog.PlanFiles(recs, f.cfg.Now(), files)
	if err := f.save(ctx, entries, p); err != nil {
		return Changes{}, err
	}
	f.cfg.Catalog.Commit(entries)
	return ch, nil
}

// inFiles maps the normalised titles of recs the catalog does not know to
// the IDs of file papers with that title (see MatchFiles): one small phrase
// query per unknown paper.
func (f *Fetcher) inFiles(ctx context.Context, recs []sources.Record) (map[string]string, error) {
	f.mu.Lock()
	ix := f.files
	f.mu.Unlock()
	if ix == nil {
		return nil, nil
	}
	out := map[string]string{}
	for _, r := range recs {
		key := sources.TitleKey(r.Title)
		if _, done := out[key]; done || key == "" || withdrawal(r) || f.cfg.Catalog.Knows(r) {
			continue
		}
		papers, err := ix.PapersTitled(ctx, r.Title)
		if err != nil {
			return nil, fmt.Errorf("looking up %q among the indexed papers: %w", r.Title, err)
		}
		out[key] = ""
		for _, p := range papers {
			if _, fetched := f.cfg.Catalog.Lookup(p.ID); !fetched && sources.TitleKey(p.Title) == key {
				out[key] = p.ID
				break
			}
		}
	}
	return out, nil
}

// Index is the part of search.Index that fetched papers are applied to.
type Index interface {
	Apply(ctx context.Context, b search.Batch) (search.Applied, error)
}

// ApplyTo brings every stored entry the index has not applied yet (new,
// changed and withdrawn papers, including those a process that died
// before applying them left pending) into ix as one batch, then clears
// them from the pending list. Safe to call again after an error.
func (f *Fetcher) ApplyTo(ctx context.Context, ix Index) (search.Applied, error) {
	ids, err := f.cfg.Store.Pending(ctx)
	if err != nil || len(ids) == 0 {
		return search.Applied{}, err
	}
	var entries []Entry
	for _, id := range ids {
		if e, ok := f.cfg.Catalog.Lookup(id); ok {
			entries = append(entries, e)
		}
	}
	b := Batch(entries)
	if len(b.Upsert)+len(b.Delete) == 0 {
		return search.Applied{}, f.cfg.Store.Applied(ctx, ids) // all of them the files' papers
	}
	applied, err := ix.Apply(ctx, b)
	if err != nil {
		return applied, fmt.Errorf("applying fetched papers to the index: %w", err)
	}
	return applied, f.cfg.Store.Applied(ctx, ids)
}

func (f *Fetcher) save(ctx context.Context, entries []Entry, p Progress) error {
	if err := f.cfg.Store.Save(ctx, entries, p); err != nil {
		return fmt.Errorf("saving %s: %w", p.Source, err)
	}
	f.set(p)
	return nil
}

// day is the arXiv announcement day t falls in.
func day(t time.Time) string { return t.In(arXivZone).Format(time.DateOnly) }

// wanted reports whether a harvested record is in one of the followed
// categories (an OAI set is a whole archive).
func wanted(r sources.Record, cats []string) bool {
	for _, rc := range r.Categories {
		for _, c := range cats {
			if rc == c || !strings.Contains(c, ".") && strings.HasPrefix(rc, c+".") {
				return true
			}
		}
	}
	return false
}

// oaiSets are the OAI-PMH sets holding the categories, in order.
func oaiSets(cats []string) []string {
	var sets []string
	for _, c := range cats {
		archive, _, _ := strings.Cut(c, ".")
		set := archive
		switch archive {
		case "cs", "math", "stat", "q-bio", "q-fin", "eess", "econ":
		case "physics":
			set = "physics:physics"
		default:
			set = "physics:" + archive
		}
		if !slices.Contains(sets, set) {
			sets = append(sets, set)
		}
	}
	return sets
}
