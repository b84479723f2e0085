package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/paperbot/paperbot/bot"
	"github.com/paperbot/paperbot/bot/lease"
	"github.com/paperbot/paperbot/bot/pgstore"
	"github.com/paperbot/paperbot/ingest"
	"github.com/paperbot/paperbot/search"
)

// runFetch runs every configured source once, merges what they announce
// into the catalog in PAPERBOT_DATA_DIR, refreshes the index and exits: for
// cron, first runs and tests. serve does the same on its schedule.
func runFetch(e *env, args []string) error {
	fs := newFlags("fetch")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("fetch takes no arguments; it follows PAPERBOT_SOURCES")
	}
	cfg := e.cfg
	if !cfg.sources().Remote() {
		return fmt.Errorf("PAPERBOT_SOURCES follows no service to fetch from (%s)", ingest.Grammar)
	}
	log := cfg.newLogger(e.stderr)
	db, err := openDatabase(e.ctx, cfg, log)
	if err != nil {
		return err
	}
	if db == nil {
		return fetchOnce(e, cfg, nil, log)
	}
	defer db.Close()
	// Under the replicas' fetcher lease: two fetchers would each take a
	// paper new to both for a new paper.
	r := lease.Runner{Store: db, Holder: lease.Holder(), TTL: cfg.LeaseTTL, Log: log}
	held, err := db.TryLease(e.ctx, fetcherLease, r.Holder, cfg.LeaseTTL)
	if err != nil {
		return err
	}
	if !held {
		return errors.New("a paperbot serve replica holds the fetcher lease and fetches on its schedule (PAPERBOT_FETCH_AT): nothing fetched here")
	}
	defer db.ReleaseLease(context.WithoutCancel(e.ctx), fetcherLease, r.Holder)
	// One run: a fetch cut short by a lost lease is not run again here (a
	// replica holding the lease fetches instead), and it stops with the job's
	// context, not the command's.
	runCtx, stop := context.WithCancel(e.ctx)
	defer stop()
	var runErr error
	if err := r.Run(runCtx, fetcherLease, func(jctx context.Context) error {
		defer stop()
		je := *e
		je.ctx = jctx
		runErr = fetchOnce(&je, cfg, db, log)
		if jctx.Err() != nil && e.ctx.Err() == nil {
			runErr = fmt.Errorf("the fetcher lease was lost mid-fetch, so this run stopped (a serve replica fetches on its schedule): %w", runErr)
		}
		return nil
	}); err != nil {
		return err
	}
	return runErr
}

// fetcherLease names the lease under which one replica fetches.
const fetcherLease = "fetcher"

// fetchOnce is runFetch's work, with the catalog in db when not nil (its
// index then in a replica directory of its own, following the catalog).
func fetchOnce(e *env, cfg Config, db *pgstore.Store, log *slog.Logger) error {
	icfg := cfg
	if db != nil {
		dir, release, err := claimReplicaDir(cfg.DataDir)
		if err != nil {
			return err
		}
		defer release()
		icfg.DataDir = dir
	}
	fd, err := openFeeds(e.ctx, cfg, db, log, nil, nil)
	if err != nil {
		return err
	}
	defer fd.Close()
	// The index opens first: the fetcher looks new papers up in it, so a
	// paper the files hold is not added twice.
	start := time.Now()
	indexExisted := hasIndex(icfg)
	ix, _, err := openIndexGuarded(e.ctx, icfg, log, progressOut(e.stderr), shrinkGuard(cfg.AllowShrink, log), fd.catalog)
	if err != nil {
		return err
	}
	defer ix.Close()
	opened := time.Since(start)
	fd.matchFiles(ix)
	apply := func(ctx context.Context) (search.Applied, error) { return fd.fetcher.ApplyTo(ctx, ix) }
	if fd.shared {
		fl, err := newFollower(fd, ix, icfg.DataDir, indexExisted, cfg.CatalogPoll, nil, log)
		if err != nil {
			return err
		}
		apply = fl.sync
	}
	start = time.Now()
	ch, runErr := fd.fetcher.Run(e.ctx)
	fetched := time.Since(start)
	printStatus(e.stdout, fd.fetcher.Status())
	fmt.Fprintf(e.stdout, "fetched in %s: %d new papers (%d news), %d updated, %d withdrawn, %d unchanged; catalog %d papers\n",
		fetched.Round(time.Millisecond), ch.Added, ch.News, ch.Updated, ch.Withdrawn, ch.Unchanged, fd.catalog.Len())
	start = time.Now()
	applied, err := apply(e.ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "index ready (opened in %s, applied in %s): %d papers; %d added, %d updated, %d deleted\n",
		opened.Round(time.Millisecond), time.Since(start).Round(time.Millisecond), ix.Stats().Papers,
		applied.Added, applied.Updated, applied.Deleted)
	return runErr
}

// apply brings what the fetcher stored since the last call into the live
// index, in place (search.Index.Apply), and records it like a reload.
func (f *feeds) apply(ctx context.Context, ix *search.Index, b *bot.Bot, log *slog.Logger) {
	start := time.Now()
	applied, err := f.fetcher.ApplyTo(ctx, ix)
	if err != nil {
		log.Error("applying fetched papers to the index failed", "err", oneLine(err))
		b.RecordReload(bot.ReloadFailed, time.Now())
		return
	}
	if applied == (search.Applied{}) {
		return // nothing was pending
	}
	log.Info("fetched papers indexed", "added", applied.Added, "updated", applied.Updated, "deleted", applied.Deleted,
		"papers", ix.Stats().Papers, "took", time.Since(start).Round(time.Millisecond))
	b.RecordReload(bot.ReloadOK, time.Now())
}

// printStatus writes one line per source.
func printStatus(w io.Writer, status []ingest.Progress) {
	for _, p := range status {
		switch {
		case p.Failing():
			fmt.Fprintf(w, "%s: FAILING since %s: %s\n", p.Source, p.LastErrorAt.Format(time.RFC3339), p.LastError)
		case p.LastSuccess.IsZero():
			fmt.Fprintf(w, "%s: never fetched\n", p.Source)
		default:
			fmt.Fprintf(w, "%s: ok at %s (day %s): %d new, %d updated, %d withdrawn\n", p.Source,
				p.LastSuccess.Format(time.RFC3339), p.Day, p.LastChanges.Added, p.LastChanges.Updated, p.LastChanges.Withdrawn)
		}
	}
}

// retryFailedAfter is how soon serve tries a failing source again.
const retryFailedAfter = time.Hour

// loop runs the sources at start (finished days are not fetched again) and
// then at PAPERBOT_FETCH_AT each day, calling apply to bring what every run
// changed into the index; a run with a failing source is retried within
// the hour. It returns when ctx ends.
func (f *feeds) loop(ctx context.Context, cfg Config, apply func(context.Context), log *slog.Logger) error {
	for {
		_, err := f.fetcher.Run(ctx)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		apply(ctx)
		next := cfg.nextFetch(time.Now())
		if err != nil {
			log.Warn("fetch failed; trying again soon", "err", oneLine(err))
			if soon := time.Now().Add(retryFailedAfter); soon.Before(next) {
				next = soon
			}
		}
		t := time.NewTimer(time.Until(next))
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// status is the sources' state for App Home and /metrics.
func (f *feeds) status() bot.FeedStatus { return feedStatus{f} }

type feedStatus struct{ f *feeds }

func (s feedStatus) Sources() []bot.SourceStatus {
	var out []bot.SourceStatus
	for _, p := range s.f.fetcher.Status() {
		out = append(out, bot.SourceStatus{Name: p.Source, LastSuccess: p.LastSuccess, LastError: p.LastError,
			LastErrorAt: p.LastErrorAt, Added: p.LastChanges.News})
	}
	return out
}

func (s feedStatus) AddedSince(t time.Time) int { return s.f.catalog.AddedSince(t) }

func (s feedStatus) Papers() int { return s.f.catalog.Len() }

func (s feedStatus) FirstSeen(ids []string) map[string]time.Time { return s.f.catalog.FirstSeen(ids) }
