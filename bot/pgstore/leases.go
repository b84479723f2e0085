package pgstore

import (
	"context"
	"fmt"
	"time"
)

// TryLease takes or renews the lease name for holder until ttl from now
// (the database's clock), when it is free, expired or holder's already.
func (s *Store) TryLease(ctx context.Context, name, holder string, ttl time.Duration) (bool, error) {
	tag, err := s.pool.Exec(ctx, `INSERT INTO leases (lease_name, holder, expires)
		VALUES ($1, $2, now() + $3 * interval '1 millisecond')
		ON CONFLICT (lease_name) DO UPDATE SET holder = EXCLUDED.holder, expires = EXCLUDED.expires
		WHERE leases.holder = EXCLUDED.holder OR leases.expires < now()`, name, holder, ttl.Milliseconds())
	if err != nil {
		return false, fmt.Errorf("lease %s: %w", name, err)
	}
	return tag.RowsAffected() == 1, nil
}

// ReleaseLease gives up holder's lease.
func (s *Store) ReleaseLease(ctx context.Context, name, holder string) error {
	if _, err := s.pool.Exec(ctx, "DELETE FROM leases WHERE lease_name = $1 AND holder = $2", name, holder); err != nil {
		return fmt.Errorf("lease %s: %w", name, err)
	}
	return nil
}
