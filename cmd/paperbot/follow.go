package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/paperbot/paperbot/bot"
	"github.com/paperbot/paperbot/ingest"
	"github.com/paperbot/paperbot/search"
)

// followPage is how many changed papers one step of a follower applies.
const followPage = 500

// dbWait bounds each of a follower's queries: a database that hangs delays
// the replica's next poll, never stops it.
const dbWait = 30 * time.Second

// markFile, in a replica's directory, records the last catalog change its
// index holds, so that a restart reusing the index applies only what
// changed since.
const markFile = "catalog-seq"

// follower keeps one replica's index in step with the catalog in the
// database, which the replica holding the fetcher lease fetches into: it
// polls the catalog's change sequence and applies what changed in place
// (search.Index.Apply), committing it to the replica's catalog as well, so
// that a replica taking the lease over plans against what is known.
// Polling rather than LISTEN/NOTIFY: one indexed query a poll, no
// connection held open, nothing to re-subscribe after the server restarts
// or behind a transaction-pooling proxy, and the bound (the poll interval,
// 15 s by default) is well inside the minute a fetch may take to reach
// every replica. The fetching replica does not wait for its poll: it calls
// sync after each run.
type follower struct {
	store   catalogStore    // its pending list cleared of what was applied, so it stays short
	fetcher *ingest.Fetcher // told the sources' progress, for App Home and /metrics
	cat     *ingest.Catalog
	ix      *search.Index
	mark    string // path of the mark file; "" for an index in memory
	every   time.Duration
	log     *slog.Logger
	b       *bot.Bot // nil: no metrics to keep

	mu  sync.Mutex
	seq int64
}

// newFollower returns a follower of fd's changes into ix, starting after
// the change ix is known to hold: the mark in dir when the index there was
// reused (existed), else what the catalog held when it was loaded, which
// a freshly built index holds.
func newFollower(fd *feeds, ix *search.Index, dir string, existed bool, every time.Duration, b *bot.Bot, log *slog.Logger) (*follower, error) {
	f := &follower{store: fd.store, fetcher: fd.fetcher, cat: fd.catalog, ix: ix, every: every, log: log, b: b, seq: fd.loadedAt}
	if dir == "" {
		return f, nil
	}
	f.mark = filepath.Join(dir, markFile)
	if existed {
		f.seq = 0 // an index without a mark: apply every change
		raw, err := os.ReadFile(f.mark)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		if n, err := strconv.ParseInt(strings.TrimSpace(string(raw)), 10, 64); err == nil && n >= 0 {
			f.seq = min(n, fd.loadedAt) // a mark ahead of the database's (a new database) counts for nothing
		}
	}
	return f, f.writeMark()
}

// run syncs every interval until ctx ends. A failed step is logged and
// tried again at the next poll: a database that is restarting does not
// stop the replica, which keeps answering from the index it has.
func (f *follower) run(ctx context.Context) error {
	t := time.NewTicker(f.every)
	defer t.Stop()
	for {
		if _, err := f.sync(ctx); err != nil && ctx.Err() == nil {
			f.log.Warn("following the catalog failed; trying again at the next poll", "err", oneLine(err), "every", f.every)
			f.record(bot.ReloadFailed)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}

// sync applies every change after the last one applied and returns what
// the index did. It also takes the sources' progress as stored, so that a
// replica that does not fetch reports the sources as the fetching one
// left them.
func (f *follower) sync(ctx context.Context) (search.Applied, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	qctx, cancel := context.WithTimeout(ctx, dbWait)
	progress, err := f.store.Progress(qctx)
	cancel()
	if err != nil {
		return search.Applied{}, err
	}
	f.fetcher.Observe(progress)
	start := time.Now()
	var total search.Applied
	for {
		qctx, cancel := context.WithTimeout(ctx, dbWait)
		entries, last, err := f.store.ChangesSince(qctx, f.seq, followPage)
		cancel()
		if err != nil || len(entries) == 0 {
			f.logApplied(total, start)
			return total, err
		}
		f.cat.Commit(entries)
		if b := ingest.Batch(entries); len(b.Upsert)+len(b.Delete) > 0 {
			applied, err := f.ix.Apply(ctx, b)
			if err != nil {
				f.logApplied(total, start)
				return total, fmt.Errorf("applying catalog changes to the index: %w", err)
			}
			total.Added += applied.Added
			total.Updated += applied.Updated
			total.Deleted += applied.Deleted
		}
		f.seq = last
		if err := f.writeMark(); err != nil {
			return total, err
		}
		ids := make([]string, len(entries))
		for i, e := range entries {
			ids[i] = e.ID
		}
		qctx, cancel = context.WithTimeout(ctx, dbWait)
		err = f.store.Applied(qctx, ids)
		cancel()
		if err != nil {
			return total, err
		}
		if len(entries) < followPage {
			f.logApplied(total, start)
			return total, nil
		}
	}
}

func (f *follower) logApplied(a search.Applied, start time.Time) {
	if a == (search.Applied{}) {
		return
	}
	f.log.Info("fetched papers indexed", "added", a.Added, "updated", a.Updated, "deleted", a.Deleted,
		"papers", f.ix.Stats().Papers, "catalog_seq", f.seq, "took", time.Since(start).Round(time.Millisecond))
	f.record(bot.ReloadOK)
}

// record counts a result in the bot's reload metrics (none for the CLI).
func (f *follower) record(result string) {
	if f.b != nil {
		f.b.RecordReload(result, time.Now())
	}
}

// writeMark records f.seq in the mark file (written aside, then renamed,
// so a crash leaves the old mark or the new one).
func (f *follower) writeMark() error {
	if f.mark == "" {
		return nil
	}
	tmp := f.mark + ".tmp"
	if err := os.WriteFile(tmp, []byte(strconv.FormatInt(f.seq, 10)+"\n"), 0o600); err != nil {
		return fmt.Errorf("recording the catalog changes indexed: %w", err)
	}
	if err := os.Rename(tmp, f.mark); err != nil {
		return fmt.Errorf("recording the catalog changes indexed: %w", err)
	}
	return nil
}
