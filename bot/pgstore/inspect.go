package pgstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Health is what `paperbot store check` reports of a database.
type Health struct {
	// Schema is the newest migration applied, 0 when paperbot never ran
	// here; Binary the newest this binary carries.
	Schema, Binary int
	Counts         Counts
}

// Inspect reads the applied schema version and the records' counts without
// writing anything. A schema newer than the binary is an error: this
// binary would misread the tables.
func (s *Store) Inspect(ctx context.Context) (Health, error) {
	h := Health{Binary: SchemaVersion()}
	err := s.pool.QueryRow(ctx, "SELECT coalesce(max(version), 0) FROM schema_migrations").Scan(&h.Schema)
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "42P01" { // undefined_table: never migrated
		return h, nil
	}
	if err != nil {
		return h, fmt.Errorf("database %s: reading the schema version: %s", s.where, pgMessage(err))
	}
	if h.Schema > h.Binary {
		return h, fmt.Errorf("database %s has schema version %d, newer than this paperbot's %d: use the newer paperbot", s.where, h.Schema, h.Binary)
	}
	if h.Schema == 0 {
		return h, nil
	}
	err = pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		h.Counts, err = countRecords(ctx, tx)
		return err
	})
	if err != nil {
		return h, fmt.Errorf("database %s: counting the records: %s", s.where, pgMessage(err))
	}
	return h, nil
}

func (h Health) String() string {
	switch {
	case h.Schema == 0:
		return "empty: paperbot has not run here yet (paperbot serve creates the tables)"
	case h.Schema < h.Binary:
		return fmt.Sprintf("schema version %d (this paperbot applies up to %d when it serves), %s", h.Schema, h.Binary, h.Counts)
	}
	return fmt.Sprintf("schema version %d, %s", h.Schema, h.Counts)
}
