package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/bot/pgstore"
	"github.com/paperbot/paperbot/ingest"
	"github.com/paperbot/paperbot/ingest/feedstore"
	"github.com/paperbot/paperbot/ingest/sources"
)

// feeds is a process's ingestion side: the feed store, the catalog it holds
// and the fetcher that adds to it. A nil *feeds follows nothing.
type feeds struct {
	store   catalogStore
	catalog *ingest.Catalog
	fetcher *ingest.Fetcher
	client  *sources.Client // shared with link lookups: one polite pace per site
	// loadedAt is the store's latest change when the catalog was loaded
	// (read before it): the catalog holds every change up to it.
	loadedAt int64
	// shared is set when the store is the database's, which other
	// replicas fetch into: the index follows its changes (follow.go).
	shared bool
	close  func() error
}

// catalogStore is where the catalog lives: feeds.db in the data directory,
// or the database of PAPERBOT_DATABASE_URL.
type catalogStore = ingest.ChangeLog

// openCatalogStore opens the catalog's store: the database's when db is
// not nil (close is then a no-op, db is closed by its opener), else
// feeds.db in the data directory.
func openCatalogStore(cfg Config, db *pgstore.Store) (st catalogStore, close func() error, err error) {
	if db != nil {
		return db.Feeds(), func() error { return nil }, nil
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, nil, fmt.Errorf("PAPERBOT_DATA_DIR: %w", err)
	}
	fs, err := feedstore.Open(filepath.Join(cfg.DataDir, feedstore.FileName), 0)
	if err != nil {
		return nil, nil, err
	}
	return fs, fs.Close, nil
}

// openFeeds opens the feed store and its catalog when PAPERBOT_SOURCES
// follows a service (nil otherwise): in db when it is not nil, so that
// replicas share one catalog, else in the data directory. now and sleep
// are the fetcher's clock (nil: the real one).
func openFeeds(ctx context.Context, cfg Config, db *pgstore.Store, log *slog.Logger, now func() time.Time, sleep func(context.Context, time.Duration) error) (*feeds, error) {
	src := cfg.sources()
	if !src.Remote() || cfg.DataDir == "" {
		return nil, nil
	}
	client, err := cfg.sourcesClient(now, sleep)
	if err != nil {
		return nil, err
	}
	st, closeStore, err := openCatalogStore(cfg, db)
	if err != nil {
		return nil, err
	}
	// Read before the catalog: a change saved in between is applied again
	// by a follower, never missed.
	loadedAt, err := st.Seq(ctx)
	if err != nil {
		closeStore()
		return nil, err
	}
	entries, progress, err := st.Load(ctx)
	if err != nil {
		closeStore()
		return nil, err
	}
	cat := ingest.NewCatalog(entries)
	f, err := ingest.NewFetcher(ingest.Config{Sources: src, Client: client, Store: st, Catalog: cat, Now: now, Log: log,
		Backfill: time.Duration(cfg.ArXivBackfill) * 24 * time.Hour}, progress)
	if err != nil {
		closeStore()
		return nil, err
	}
	return &feeds{store: st, catalog: cat, fetcher: f, client: client, loadedAt: loadedAt, shared: db != nil, close: closeStore}, nil
}

// Close releases the feed store; nil-safe.
func (f *feeds) Close() {
	if f != nil {
		_ = f.close()
	}
}

// matchFiles makes the fetcher look up new papers in ix, so a paper the
// operator's files hold keeps the file's card; nil-safe.
func (f *feeds) matchFiles(ix ingest.Files) {
	if f != nil {
		f.fetcher.MatchFiles(ix)
	}
}

// cat is the catalog, nil when nothing is followed.
func (f *feeds) cat() *ingest.Catalog {
	if f == nil {
		return nil
	}
	return f.catalog
}

// fresh limits digests to arrivals when sources are followed.
func (f *feeds) fresh(days int) digest.Fresh {
	if f == nil {
		return digest.Fresh{}
	}
	return digest.Fresh{Arrivals: f.catalog, NewDays: days}
}

// loadCatalog reads the catalog for a command that indexes or searches
// without fetching, so its index holds the fetched papers too: from the
// database of PAPERBOT_DATABASE_URL when set, else from the data directory.
// nil when nothing was ever fetched; an error when serve holds the file.
func loadCatalog(ctx context.Context, cfg Config) (*ingest.Catalog, error) {
	if cfg.DatabaseURL != "" && cfg.sources().Remote() {
		db, err := pgstore.Open(ctx, cfg.DatabaseURL)
		if err != nil {
			return nil, err
		}
		defer db.Close()
		entries, _, err := db.Feeds().Load(ctx)
		if err != nil {
			return nil, err
		}
		return ingest.NewCatalog(entries), nil
	}
	if cfg.DataDir == "" {
		return nil, nil
	}
	path := filepath.Join(cfg.DataDir, feedstore.FileName)
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	st, err := feedstore.Open(path, 0)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	entries, _, err := st.Load(ctx)
	if err != nil {
		return nil, err
	}
	return ingest.NewCatalog(entries), nil
}
