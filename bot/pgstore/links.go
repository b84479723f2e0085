package pgstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// linkKeep is how long a cached link is kept: longer than any LinkFinder
// trusts one (30 days for a found paper), as in boltstore.
const linkKeep = 31 * 24 * time.Hour

// GetLink returns the value stored for key and when; ok is false when none is.
func (s *Store) GetLink(ctx context.Context, key string) (val []byte, at time.Time, ok bool, err error) {
	var ns int64
	err = s.pool.QueryRow(ctx, "SELECT stored_ns, val FROM links WHERE link_key = $1", key).Scan(&ns, &val)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, time.Time{}, false, nil
	}
	if err != nil {
		return nil, time.Time{}, false, fmt.Errorf("link %s: %w", key, err)
	}
	return val, time.Unix(0, ns), true, nil
}

// PutLink stores val for key at at, replacing what was there, and deletes
// up to a hundred entries stored more than 31 days before at.
func (s *Store) PutLink(ctx context.Context, key string, val []byte, at time.Time) error {
	if val == nil {
		val = []byte{}
	}
	if _, err := s.pool.Exec(ctx, `INSERT INTO links (link_key, stored_ns, val) VALUES ($1, $2, $3)
		ON CONFLICT (link_key) DO UPDATE SET stored_ns = EXCLUDED.stored_ns, val = EXCLUDED.val`, key, at.UnixNano(), val); err != nil {
		return fmt.Errorf("link %s: %w", key, err)
	}
	if _, err := s.pool.Exec(ctx, `DELETE FROM links WHERE link_key IN
		(SELECT link_key FROM links WHERE stored_ns < $1 ORDER BY stored_ns LIMIT $2)`, at.Add(-linkKeep).UnixNano(), maxPurge); err != nil {
		return fmt.Errorf("purge links: %w", err)
	}
	return nil
}
