package pgstore

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/fault"
)

var _ digest.Store = (*Store)(nil)

func getSub(ctx context.Context, q querier, id, lock string) (digest.Subscription, error) {
	return getJSON[digest.Subscription](ctx, q, "subscription "+id, "SELECT data FROM subscriptions WHERE id = $1"+lock, id)
}

func putSub(ctx context.Context, tx pgx.Tx, sub digest.Subscription) error {
	v, err := json.Marshal(sub)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, "UPDATE subscriptions SET paused = $2, data = $3 WHERE id = $1", sub.ID, sub.Paused, v)
	return err
}

func (s *Store) Create(ctx context.Context, sub digest.Subscription) error {
	if err := sub.Validate(); err != nil {
		return err
	}
	v, err := json.Marshal(sub)
	if err != nil {
		return err
	}
	tag, err := s.pool.Exec(ctx, `INSERT INTO subscriptions (id, channel_id, created_by, paused, data)
		VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING`, sub.ID, sub.ChannelID, sub.CreatedBy, sub.Paused, v)
	if err != nil {
		return fmt.Errorf("subscription %s: %w", sub.ID, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("subscription %s: %w", sub.ID, fault.Exists)
	}
	return nil
}

func (s *Store) Get(ctx context.Context, id string) (digest.Subscription, error) {
	return getSub(ctx, s.pool, id, "")
}

func (s *Store) Delete(ctx context.Context, id string) error {
	tag, err := s.pool.Exec(ctx, "DELETE FROM subscriptions WHERE id = $1", id)
	if err != nil {
		return fmt.Errorf("subscription %s: %w", id, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("subscription %s: %w", id, fault.NotFound)
	}
	return nil
}

// list returns the subscriptions the WHERE clause keeps, in the Store order.
func (s *Store) list(ctx context.Context, where string, args ...any) ([]digest.Subscription, error) {
	rows, err := s.pool.Query(ctx, "SELECT data FROM subscriptions WHERE "+where, args...)
	if err != nil {
		return nil, fmt.Errorf("subscriptions: %w", err)
	}
	out, err := collectJSON[digest.Subscription](rows, "subscription")
	if err != nil {
		return nil, fmt.Errorf("subscriptions: %w", err)
	}
	digest.SortSubscriptions(out)
	return out, nil
}

func (s *Store) ByChannel(ctx context.Context, channelID string) ([]digest.Subscription, error) {
	return s.list(ctx, "channel_id = $1", channelID)
}

func (s *Store) ByCreator(ctx context.Context, userID string) ([]digest.Subscription, error) {
	return s.list(ctx, "created_by = $1", userID)
}

func (s *Store) Active(ctx context.Context) ([]digest.Subscription, error) {
	return s.list(ctx, "NOT paused")
}

// modify rewrites a subscription under a row lock.
func (s *Store) modify(ctx context.Context, id string, fn func(*digest.Subscription)) error {
	return s.inTx(ctx, func(tx pgx.Tx) error {
		sub, err := getSub(ctx, tx, id, " FOR UPDATE")
		if err != nil {
			return err
		}
		fn(&sub)
		return putSub(ctx, tx, sub)
	})
}

func (s *Store) Pause(ctx context.Context, id, reason string) error {
	return s.modify(ctx, id, func(sub *digest.Subscription) { digest.ApplyPause(sub, reason) })
}

func (s *Store) Resume(ctx context.Context, id string, at time.Time) error {
	return s.modify(ctx, id, func(sub *digest.Subscription) { digest.ApplyResume(sub, at) })
}

func (s *Store) PostedIn(ctx context.Context, channelID string, paperIDs []string) (map[string]bool, error) {
	out := map[string]bool{}
	if len(paperIDs) == 0 {
		return out, nil
	}
	rows, err := s.pool.Query(ctx, "SELECT paper_id FROM digest_ledger WHERE channel_id = $1 AND paper_id = ANY($2)", channelID, paperIDs)
	if err != nil {
		return nil, fmt.Errorf("ledger of %s: %w", channelID, err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("ledger of %s: %w", channelID, err)
	}
	for _, id := range ids {
		out[id] = true
	}
	return out, nil
}

func getRun(ctx context.Context, q querier, key digest.RunKey, lock string) (digest.Run, error) {
	return getJSON[digest.Run](ctx, q, "run "+key.String(), "SELECT data FROM digest_runs WHERE run_key = $1"+lock, key.String())
}

func putRun(ctx context.Context, tx pgx.Tx, r digest.Run) error {
	v, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, "UPDATE digest_runs SET state = $2, data = $3 WHERE run_key = $1", r.Key.String(), string(r.State), v)
	return err
}

// Claim inserts the run under its key, the table's primary key: of replicas
// claiming at once, PostgreSQL lets one insert and the others wait for its
// commit and then find its row.
func (s *Store) Claim(ctx context.Context, run digest.Run) (digest.Run, bool, error) {
	if err := digest.ValidateClaim(run); err != nil {
		return digest.Run{}, false, err
	}
	got := digest.NewClaim(run)
	v, err := json.Marshal(got)
	if err != nil {
		return digest.Run{}, false, err
	}
	tag, err := s.pool.Exec(ctx, "INSERT INTO digest_runs (run_key, state, data) VALUES ($1, $2, $3) ON CONFLICT (run_key) DO NOTHING",
		got.Key.String(), string(got.State), v)
	if err != nil {
		return digest.Run{}, false, fmt.Errorf("claim %s: %w", run.Key, err)
	}
	if tag.RowsAffected() == 1 {
		return got, true, nil
	}
	old, err := getRun(ctx, s.pool, run.Key, "")
	if err != nil {
		return digest.Run{}, false, err
	}
	return old, false, nil
}

func (s *Store) GetRun(ctx context.Context, key digest.RunKey) (digest.Run, error) {
	return getRun(ctx, s.pool, key, "")
}

// transition applies fn to a run under a row lock.
func (s *Store) transition(ctx context.Context, key digest.RunKey, fn func(*digest.Run) error) error {
	return s.inTx(ctx, func(tx pgx.Tx) error {
		r, err := getRun(ctx, tx, key, " FOR UPDATE")
		if err != nil {
			return err
		}
		if err := fn(&r); err != nil {
			return err
		}
		return putRun(ctx, tx, r)
	})
}

func (s *Store) Choose(ctx context.Context, key digest.RunKey, paperIDs []string, at time.Time) error {
	return s.transition(ctx, key, func(r *digest.Run) error { return digest.ApplyChoose(r, paperIDs, at) })
}

func (s *Store) Attempt(ctx context.Context, key digest.RunKey, reason string, at time.Time) error {
	return s.transition(ctx, key, func(r *digest.Run) error { return digest.ApplyAttempt(r, reason, at) })
}

// MarkPosted commits the run state, the channel ledger and the
// subscription's PostedCount in one transaction.
func (s *Store) MarkPosted(ctx context.Context, key digest.RunKey, ts string, at time.Time) error {
	return s.inTx(ctx, func(tx pgx.Tx) error {
		r, err := getRun(ctx, tx, key, " FOR UPDATE")
		if err != nil {
			return err
		}
		changed, err := digest.ApplyPosted(&r, ts, at)
		if err != nil || !changed {
			return err
		}
		if err := putRun(ctx, tx, r); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO digest_ledger (channel_id, paper_id, run_key)
			SELECT $1, p, $3 FROM unnest($2::text[]) AS p
			ON CONFLICT (channel_id, paper_id) DO UPDATE SET run_key = EXCLUDED.run_key`,
			r.ChannelID, r.Papers, key.String()); err != nil {
			return err
		}
		sub, err := getSub(ctx, tx, key.SubscriptionID, " FOR UPDATE")
		if err != nil {
			return nil // deleted since the claim: the ledger still counts
		}
		sub.PostedCount += len(r.Papers)
		return putSub(ctx, tx, sub)
	})
}

func (s *Store) Finish(ctx context.Context, key digest.RunKey, state digest.RunState, reason string, at time.Time) error {
	return s.transition(ctx, key, func(r *digest.Run) error { return digest.ApplyFinish(r, state, reason, at) })
}

func (s *Store) Unfinished(ctx context.Context) ([]digest.Run, error) {
	rows, err := s.pool.Query(ctx, "SELECT data FROM digest_runs WHERE state IN ('claimed', 'posting')")
	if err != nil {
		return nil, fmt.Errorf("unfinished runs: %w", err)
	}
	out, err := collectJSON[digest.Run](rows, "run")
	if err != nil {
		return nil, fmt.Errorf("unfinished runs: %w", err)
	}
	digest.SortRuns(out)
	return out, nil
}
