package pgstore

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/paperbot/paperbot/bot/thread"
	"github.com/paperbot/paperbot/fault"
)

// maxPurge bounds the expired threads or stale links one save deletes, so a
// save stays quick.
const maxPurge = 100

// Threads is the store's thread.Store.
func (s *Store) Threads() thread.Store { return threadStore{s} }

type threadStore struct{ s *Store }

var _ thread.Store = threadStore{}

// Save keeps t (replacing the thread's earlier context) until t.Expires,
// and deletes up to a hundred threads expired by then.
func (ts threadStore) Save(ctx context.Context, t thread.Context) error {
	if err := t.Validate(); err != nil {
		return err
	}
	v, err := json.Marshal(t)
	if err != nil {
		return fmt.Errorf("save thread: %w", err)
	}
	upsert := `INSERT INTO threads (channel_id, ts, expires, data) VALUES ($1, $2, $3, $4)
		ON CONFLICT (channel_id, ts) DO UPDATE SET expires = EXCLUDED.expires, data = EXCLUDED.data`
	if _, err := ts.s.pool.Exec(ctx, upsert, t.Channel, t.TS, t.Expires, v); err != nil {
		return fmt.Errorf("save thread %s: %w", thread.Key(t.Channel, t.TS), err)
	}
	// A thread saved now expires thread.Keep from now or sooner.
	if _, err := ts.s.pool.Exec(ctx, `DELETE FROM threads WHERE ctid IN
		(SELECT ctid FROM threads WHERE expires < $1 ORDER BY expires LIMIT $2)`, t.Expires.Add(-thread.Keep), maxPurge); err != nil {
		return fmt.Errorf("purge threads: %w", err)
	}
	return nil
}

// Get returns the context saved for channel and ts; fault.NotFound when
// there is none or it expired at now.
func (ts threadStore) Get(ctx context.Context, channel, tsParent string, now time.Time) (thread.Context, error) {
	key := thread.Key(channel, tsParent)
	t, err := getJSON[thread.Context](ctx, ts.s.pool, "thread "+key, "SELECT data FROM threads WHERE channel_id = $1 AND ts = $2", channel, tsParent)
	if err != nil {
		return thread.Context{}, err
	}
	if !now.Before(t.Expires) {
		return thread.Context{}, fmt.Errorf("thread %s: expired: %w", key, fault.NotFound)
	}
	return t, nil
}
