package main

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/paperbot/paperbot/bot"
	"github.com/paperbot/paperbot/ingest"
	"github.com/paperbot/paperbot/search"
)

// reloadOnHangup re-reads PAPERBOT_CORPUS on every SIGHUP and swaps the new
// index in while queries continue; new papers become eligible for the next
// digests. A reload that fails, or that the shrink guard refuses, keeps the
// live index and logs an error naming the files and counts. Every result is
// recorded in the bot's metrics.
func reloadOnHangup(ctx context.Context, cfg Config, ix *search.Index, b *bot.Bot, log *slog.Logger, cat *ingest.Catalog) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
			}
			b.RecordReload(reload(ctx, cfg, ix, log, cat), time.Now())
		}
	}()
	return func() { signal.Stop(hup); cancel(); <-done }
}

// reload re-indexes the files and the catalog cat (nil for none) once and
// returns its result, one of bot.Reload*.
func reload(ctx context.Context, cfg Config, ix *search.Index, log *slog.Logger, cat *ingest.Catalog) string {
	start := time.Now()
	if cfg.DataDir != "" && unchangedSource(ctx, cfg, ix, log) != nil {
		log.Info("re-index: the corpus files have not changed", "papers", ix.Stats().Papers)
		return bot.ReloadUnchanged
	}
	papers, source, release, err := loadCorpusStamped(ctx, cfg, cat, nil)
	if err != nil {
		log.Error("re-index failed; the previous index stays live", "err", oneLine(err), "papers", ix.Stats().Papers)
		return bot.ReloadFailed
	}
	defer release()
	before := ix.CorpusHash()
	if err := ix.ReloadStamped(ctx, papers, source); err != nil {
		var refused *shrinkRefused
		if errors.As(err, &refused) {
			log.Error("re-index refused: it would lose papers; the previous index stays live", refused.logAttrs()...)
			return bot.ReloadRefused
		}
		log.Error("re-index failed; the previous index stays live", "err", oneLine(err), "papers", ix.Stats().Papers)
		return bot.ReloadFailed
	}
	if ix.CorpusHash() == before {
		// Only the files' stamp was recorded, if anything.
		log.Info("re-index: the corpus has not changed", "papers", ix.Stats().Papers)
		return bot.ReloadUnchanged
	}
	if r := papers.Report(); r.Skipped > 0 {
		log.Warn("re-indexed with problems", "skipped", r.Skipped, "first_problems", firstN(r.Problems, 3))
	}
	debug.FreeOSMemory() // a serving process need not keep a reload's peak
	log.Info("re-indexed", "papers", ix.Stats().Papers, "took", time.Since(start).Round(time.Millisecond))
	return bot.ReloadOK
}

// startupLenient lets guard refuse only once start-up is over: when serve
// starts there is no live index to keep serving (the old one's corpus files
// are gone), so the loss is logged as an error and the new corpus served.
func startupLenient(starting *atomic.Bool, guard func(search.LiveCorpus, search.LoadReport) error, log *slog.Logger) func(search.LiveCorpus, search.LoadReport) error {
	return func(live search.LiveCorpus, next search.LoadReport) error {
		err := guard(live, next)
		var refused *shrinkRefused
		if errors.As(err, &refused) && starting.Load() {
			log.Error("the corpus lost papers since the data directory was last indexed; serving it anyway "+
				"(at start-up there is no live index to keep)", refused.logAttrs()...)
			return nil
		}
		return err
	}
}
