package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"time"

	"github.com/paperbot/paperbot/bot/boltstore"
	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/bot/memory"
	"github.com/paperbot/paperbot/bot/pgstore"
	"github.com/paperbot/paperbot/bot/thread"
	"github.com/paperbot/paperbot/ingest"
)

// stateStore is everything serve keeps: the bbolt file in PAPERBOT_DATA_DIR
// (boltstore) or the PostgreSQL database of PAPERBOT_DATABASE_URL (pgstore).
type stateStore interface {
	digest.Store
	memory.Store
	ingest.LinkCache
	Threads() thread.Store
}

var (
	_ stateStore = (*boltstore.Store)(nil)
	_ stateStore = (*pgstore.Store)(nil)
)

// openDatabase opens the database of PAPERBOT_DATABASE_URL, nil when it is
// not set. serve opens it before loading the index, so a URL that is wrong,
// unreachable or lacks rights stops start-up at once.
func openDatabase(ctx context.Context, cfg Config, log *slog.Logger) (*pgstore.Store, error) {
	if cfg.DatabaseURL == "" {
		return nil, nil
	}
	pg, err := pgstore.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return nil, err // says what is wrong with the URL, never its password
	}
	log.Info("state in PostgreSQL", "database", pg.Where(), "schema_version", pgstore.SchemaVersion())
	return pg, nil
}

// openState returns the store serve keeps its state in: db when not nil,
// else the file in PAPERBOT_DATA_DIR; bolt is that file's store (for its
// backup endpoint), nil with a database. Both are nil without either:
// digests are off.
func openState(cfg Config, db *pgstore.Store) (state stateStore, bolt *boltstore.Store, err error) {
	switch {
	case db != nil:
		return db, nil, nil
	case cfg.DataDir != "":
		bs, err := boltstore.Open(filepath.Join(cfg.DataDir, boltstore.FileName), boltstore.Options{})
		if err != nil {
			return nil, nil, err // names the store, what is wrong and what to do
		}
		return bs, bs, nil
	}
	return nil, nil, nil
}

// readyWithDatabase answers /readyz with 503 when the database does not
// answer within two seconds, so that an orchestrator sends no traffic to a
// replica cut off from the shared state; other paths go to h.
func readyWithDatabase(h http.Handler, db *pgstore.Store) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/readyz" {
			ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
			defer cancel()
			if err := db.Check(ctx); err != nil {
				w.Header().Set("Content-Type", "text/plain; charset=utf-8")
				w.WriteHeader(http.StatusServiceUnavailable)
				fmt.Fprintln(w, "not ready:", err)
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}
