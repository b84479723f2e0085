package pgstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/paperbot/paperbot/bot"
)

var _ bot.SharedDedup = (*Store)(nil)

// ClaimDeliveries takes keys for hold, all or none: false when any is
// handled or claimed elsewhere and not yet expired. Times are the
// database's, so replicas' clocks need not agree.
func (s *Store) ClaimDeliveries(ctx context.Context, keys []string, hold time.Duration) (bool, error) {
	if len(keys) == 0 {
		return true, nil
	}
	// Sorted, so claims lock rows in one order and cannot deadlock; unique,
	// as one INSERT may not touch a row twice.
	keys = slices.Compact(slices.Sorted(slices.Values(keys)))
	won := false
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `INSERT INTO deliveries (delivery_key, handled, held_until)
			SELECT k, false, now() + $2 * interval '1 millisecond' FROM unnest($1::text[]) AS k
			ON CONFLICT (delivery_key) DO UPDATE SET handled = false, held_until = EXCLUDED.held_until
			WHERE deliveries.held_until < now()`, keys, hold.Milliseconds())
		if err != nil {
			return err
		}
		if won = tag.RowsAffected() == int64(len(keys)); !won {
			return errNotWon // rolls back the keys this claim did take
		}
		return nil
	})
	if errors.Is(err, errNotWon) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("claim delivery: %w", err)
	}
	return won, nil
}

var errNotWon = errors.New("delivery claimed elsewhere")

// FinishDeliveries remembers handled keys for keep, or releases them; and
// deletes up to a hundred expired ones.
func (s *Store) FinishDeliveries(ctx context.Context, keys []string, handled bool, keep time.Duration) error {
	var err error
	if handled {
		_, err = s.pool.Exec(ctx, `UPDATE deliveries SET handled = true, held_until = now() + $2 * interval '1 millisecond'
			WHERE delivery_key = ANY($1)`, keys, keep.Milliseconds())
	} else {
		_, err = s.pool.Exec(ctx, "DELETE FROM deliveries WHERE delivery_key = ANY($1) AND NOT handled", keys)
	}
	if err != nil {
		return fmt.Errorf("finish delivery: %w", err)
	}
	if _, err := s.pool.Exec(ctx, `DELETE FROM deliveries WHERE delivery_key IN
		(SELECT delivery_key FROM deliveries WHERE held_until < now() ORDER BY held_until LIMIT $1)`, maxPurge); err != nil {
		return fmt.Errorf("purge deliveries: %w", err)
	}
	return nil
}
