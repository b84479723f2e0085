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
	"github.com/paperbot/paperbot/ingest"
	"github.com/paperbot/paperbot/ingest/feedstore"
	"github.com/paperbot/paperbot/ingest/sources"
)

// feeds is a process's ingestion side: the feed store, the catalog it holds
// and the fetcher that adds to it. A nil *feeds follows nothing.
type feeds struct {
	store   *feedstore.Store
	catalog *ingest.Catalog
	fetcher *ingest.Fetcher
	client  *sources.Client // shared with link lookups: one polite pace per site
}

// openFeeds opens the feed store and its catalog when PAPERBOT_SOURCES
// follows a service (nil otherwise). now and sleep are the fetcher's clock
// (nil: the real one).
func openFeeds(ctx context.Context, cfg Config, log *slog.Logger, now func() time.Time, sleep func(context.Context, time.Duration) error) (*feeds, error) {
	src := cfg.sources()
	if !src.Remote() || cfg.DataDir == "" {
		return nil, nil
	}
	client, err := cfg.sourcesClient(now, sleep)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("PAPERBOT_DATA_DIR: %w", err)
	}
	st, err := feedstore.Open(filepath.Join(cfg.DataDir, feedstore.FileName), 0)
	if err != nil {
		return nil, err
	}
	entries, progress, err := st.Load(ctx)
	if err != nil {
		st.Close()
		return nil, err
	}
	cat := ingest.NewCatalog(entries)
	f, err := ingest.NewFetcher(ingest.Config{Sources: src, Client: client, Store: st, Catalog: cat, Now: now, Log: log,
		Backfill: time.Duration(cfg.ArXivBackfill) * 24 * time.Hour}, progress)
	if err != nil {
		st.Close()
		return nil, err
	}
	return &feeds{store: st, catalog: cat, fetcher: f, client: client}, nil
}

// Close releases the feed store; nil-safe.
func (f *feeds) Close() {
	if f != nil {
		f.store.Close()
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
// without fetching, so its index holds the fetched papers too. nil when
// nothing was ever fetched; an error when serve holds the store.
func loadCatalog(ctx context.Context, cfg Config) (*ingest.Catalog, error) {
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
