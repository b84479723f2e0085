package pgstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/paperbot/paperbot/fault"
	"github.com/paperbot/paperbot/ingest"
)

// Feeds is the feeds catalog and the sources' progress in the database: an
// ingest.Store and ingest.ChangeLog, as ingest/feedstore is in a bbolt file.
// It lives here rather than beside feedstore because ingest must not import
// bot and the tables belong to this package's one list of migrations,
// applied under one lock. Safe for concurrent use by any number of
// processes.
type Feeds struct{ s *Store }

var (
	_ ingest.Store     = (*Feeds)(nil)
	_ ingest.ChangeLog = (*Feeds)(nil)
)

// Feeds returns the catalog store of s.
func (s *Store) Feeds() *Feeds { return &Feeds{s} }

// feedsLock is the transaction advisory lock saves take, so that change
// numbers are drawn in the order saves commit: a follower that read up to n
// can never later find a smaller number committed ("feeds" in ASCII).
const feedsLock int64 = 0x6665656473

// Load returns every entry and every source's progress.
func (f *Feeds) Load(ctx context.Context) ([]ingest.Entry, []ingest.Progress, error) {
	rows, err := f.s.pool.Query(ctx, "SELECT data FROM feed_papers")
	if err != nil {
		return nil, nil, fmt.Errorf("feed store: %w", err)
	}
	entries, err := collectJSON[ingest.Entry](rows, "feed paper")
	if err != nil {
		return nil, nil, fmt.Errorf("feed store: %w", err)
	}
	progress, err := f.Progress(ctx)
	if err != nil {
		return nil, nil, err
	}
	return entries, progress, nil
}

// Progress returns every source's progress.
func (f *Feeds) Progress(ctx context.Context) ([]ingest.Progress, error) {
	rows, err := f.s.pool.Query(ctx, "SELECT data FROM feed_progress")
	if err != nil {
		return nil, fmt.Errorf("feed store: %w", err)
	}
	progress, err := collectJSON[ingest.Progress](rows, "feed progress")
	if err != nil {
		return nil, fmt.Errorf("feed store: %w", err)
	}
	return progress, nil
}

// Save stores entries, each pending and numbered anew, and p, in one
// transaction.
func (f *Feeds) Save(ctx context.Context, entries []ingest.Entry, p ingest.Progress) error {
	if p.Source == "" {
		return errors.New("feed store: progress without a source name")
	}
	prog, err := json.Marshal(p)
	if err != nil {
		return err
	}
	return f.s.inTx(ctx, func(tx pgx.Tx) error {
		if len(entries) > 0 {
			if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", feedsLock); err != nil {
				return fmt.Errorf("feed store: %w", err)
			}
		}
		for _, e := range entries {
			b, err := json.Marshal(e)
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `INSERT INTO feed_papers (paper_id, change_seq, pending, data)
				VALUES ($1, nextval('feed_change_seq'), true, $2)
				ON CONFLICT (paper_id) DO UPDATE SET change_seq = EXCLUDED.change_seq, pending = true, data = EXCLUDED.data`,
				e.ID, b); err != nil {
				return fmt.Errorf("feed store: paper %s: %w", e.ID, err)
			}
		}
		if _, err := tx.Exec(ctx, `INSERT INTO feed_progress (source, data) VALUES ($1, $2)
			ON CONFLICT (source) DO UPDATE SET data = EXCLUDED.data`, p.Source, prog); err != nil {
			return fmt.Errorf("feed store: progress of %s: %w", p.Source, err)
		}
		return nil
	})
}

// Pending lists the IDs saved and not yet applied, in ID order.
func (f *Feeds) Pending(ctx context.Context) ([]string, error) {
	rows, err := f.s.pool.Query(ctx, "SELECT paper_id FROM feed_papers WHERE pending ORDER BY paper_id COLLATE \"C\"")
	if err != nil {
		return nil, fmt.Errorf("feed store: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("feed store: %w", err)
	}
	return ids, nil
}

// Applied clears ids from the pending list.
func (f *Feeds) Applied(ctx context.Context, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	if _, err := f.s.pool.Exec(ctx, "UPDATE feed_papers SET pending = false WHERE pending AND paper_id = ANY($1)", ids); err != nil {
		return fmt.Errorf("feed store: %w", err)
	}
	return nil
}

// Seq is the number of the latest change, 0 before any.
func (f *Feeds) Seq(ctx context.Context) (int64, error) {
	var n int64
	if err := f.s.pool.QueryRow(ctx, "SELECT coalesce(max(change_seq), 0) FROM feed_papers").Scan(&n); err != nil {
		return 0, fmt.Errorf("feed store: %w", err)
	}
	return n, nil
}

// ChangesSince returns up to limit entries changed after seq, in order.
func (f *Feeds) ChangesSince(ctx context.Context, seq int64, limit int) ([]ingest.Entry, int64, error) {
	rows, err := f.s.pool.Query(ctx, "SELECT change_seq, data FROM feed_papers WHERE change_seq > $1 ORDER BY change_seq LIMIT $2", seq, limit)
	if err != nil {
		return nil, seq, fmt.Errorf("feed store: %w", err)
	}
	defer rows.Close()
	var out []ingest.Entry
	last := seq
	for rows.Next() {
		var n int64
		var raw []byte
		if err := rows.Scan(&n, &raw); err != nil {
			return nil, seq, fmt.Errorf("feed store: %w", err)
		}
		var e ingest.Entry
		if err := json.Unmarshal(raw, &e); err != nil {
			return nil, seq, fmt.Errorf("feed store: change %d: corrupt record: %w", n, err)
		}
		out, last = append(out, e), n
	}
	if err := rows.Err(); err != nil {
		return nil, seq, fmt.Errorf("feed store: %w", err)
	}
	return out, last, nil
}

// Import copies a catalog and the sources' progress (as ingest/feedstore
// loads them) into empty feed tables, in one transaction, numbering the
// entries in the order given, none pending (every replica's index is built
// with the catalog), and verifies the counts. It refuses (fault.Exists)
// tables that hold any of them: nothing is merged or overwritten.
func (f *Feeds) Import(ctx context.Context, entries []ingest.Entry, progress []ingest.Progress) (papers, sources int, err error) {
	err = f.s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", feedsLock); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, "SELECT (SELECT count(*) FROM feed_papers), (SELECT count(*) FROM feed_progress)").Scan(&papers, &sources); err != nil {
			return err
		}
		if papers+sources > 0 {
			return fault.Errorf("migrate", fault.Exists, "database %s already holds %d fetched papers and %d sources' progress: migrate into an empty database", f.s.where, papers, sources)
		}
		b := &pgx.Batch{}
		for _, e := range entries {
			raw, err := json.Marshal(e)
			if err != nil {
				return err
			}
			b.Queue("INSERT INTO feed_papers (paper_id, change_seq, pending, data) VALUES ($1, nextval('feed_change_seq'), false, $2)", e.ID, raw)
		}
		for _, p := range progress {
			raw, err := json.Marshal(p)
			if err != nil {
				return err
			}
			b.Queue("INSERT INTO feed_progress (source, data) VALUES ($1, $2)", p.Source, raw)
		}
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, "SELECT (SELECT count(*) FROM feed_papers), (SELECT count(*) FROM feed_progress)").Scan(&papers, &sources); err != nil {
			return err
		}
		if papers != len(entries) || sources != len(progress) {
			return fmt.Errorf("copied %d papers and %d sources, the feed store holds %d and %d: nothing was kept", papers, sources, len(entries), len(progress))
		}
		return nil
	})
	if err != nil {
		return 0, 0, fmt.Errorf("feed store: %w", err)
	}
	return papers, sources, nil
}
