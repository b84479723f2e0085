package boltstore

import (
	"context"
	"encoding/json"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/paperbot/paperbot/bot/digest"
)

func getRun(tx *bolt.Tx, key digest.RunKey) (digest.Run, error) {
	return getJSON[digest.Run](tx, bucketRuns, key.String(), "run")
}

// putRun writes a run and keeps the index of unfinished runs in step.
func putRun(tx *bolt.Tx, r digest.Run) error {
	v, err := json.Marshal(r)
	if err != nil {
		return err
	}
	k := []byte(r.Key.String())
	if err := tx.Bucket(bucketRuns).Put(k, v); err != nil {
		return err
	}
	if r.State.Done() {
		return tx.Bucket(bucketOpen).Delete(k)
	}
	return tx.Bucket(bucketOpen).Put(k, nil)
}

func (s *Store) Claim(ctx context.Context, run digest.Run) (got digest.Run, won bool, err error) {
	if err := digest.ValidateClaim(run); err != nil {
		return digest.Run{}, false, err
	}
	err = s.update(ctx, func(tx *bolt.Tx) error {
		old, err := getRun(tx, run.Key)
		if err == nil {
			got = old
			return nil
		}
		got, won = digest.NewClaim(run), true
		return putRun(tx, got)
	})
	if err != nil {
		return digest.Run{}, false, err
	}
	return got, won, nil
}

func (s *Store) GetRun(ctx context.Context, key digest.RunKey) (r digest.Run, err error) {
	err = s.view(ctx, func(tx *bolt.Tx) error {
		r, err = getRun(tx, key)
		return err
	})
	return r, err
}

func (s *Store) transition(ctx context.Context, key digest.RunKey, fn func(*digest.Run) error) error {
	return s.update(ctx, func(tx *bolt.Tx) error {
		r, err := getRun(tx, key)
		if err != nil {
			return err
		}
		if err := fn(&r); err != nil {
			return err
		}
		return putRun(tx, r)
	})
}

func (s *Store) Choose(ctx context.Context, key digest.RunKey, paperIDs []string, at time.Time) error {
	return s.transition(ctx, key, func(r *digest.Run) error { return digest.ApplyChoose(r, paperIDs, at) })
}

func (s *Store) Attempt(ctx context.Context, key digest.RunKey, reason string, at time.Time) error {
	return s.transition(ctx, key, func(r *digest.Run) error { return digest.ApplyAttempt(r, reason, at) })
}

// MarkPosted commits the run state, the channel ledger and the subscription's
// PostedCount in one bbolt transaction.
func (s *Store) MarkPosted(ctx context.Context, key digest.RunKey, ts string, at time.Time) error {
	return s.update(ctx, func(tx *bolt.Tx) error {
		r, err := getRun(tx, key)
		if err != nil {
			return err
		}
		changed, err := digest.ApplyPosted(&r, ts, at)
		if err != nil || !changed {
			return err
		}
		if err := putRun(tx, r); err != nil {
			return err
		}
		ledger, err := tx.Bucket(bucketLedger).CreateBucketIfNotExists([]byte(r.ChannelID))
		if err != nil {
			return err
		}
		for _, id := range r.Papers {
			if err := ledger.Put([]byte(id), []byte(key.String())); err != nil {
				return err
			}
		}
		sub, err := getSub(tx, key.SubscriptionID)
		if err != nil {
			return nil // deleted since the claim: the ledger still counts
		}
		sub.PostedCount += len(r.Papers)
		return putSub(tx, sub)
	})
}

func (s *Store) Finish(ctx context.Context, key digest.RunKey, state digest.RunState, reason string, at time.Time) error {
	return s.transition(ctx, key, func(r *digest.Run) error { return digest.ApplyFinish(r, state, reason, at) })
}

func (s *Store) Unfinished(ctx context.Context) ([]digest.Run, error) {
	var out []digest.Run
	err := s.view(ctx, func(tx *bolt.Tx) error {
		return tx.Bucket(bucketOpen).ForEach(func(k, _ []byte) error {
			key, err := digest.ParseRunKey(string(k))
			if err != nil {
				return err
			}
			r, err := getRun(tx, key)
			if err != nil {
				return err
			}
			out = append(out, r)
			return nil
		})
	})
	digest.SortRuns(out)
	return out, err
}

func (s *Store) PostedIn(ctx context.Context, channelID string, paperIDs []string) (map[string]bool, error) {
	out := map[string]bool{}
	err := s.view(ctx, func(tx *bolt.Tx) error {
		ledger := tx.Bucket(bucketLedger).Bucket([]byte(channelID))
		if ledger == nil {
			return nil
		}
		for _, id := range paperIDs {
			if ledger.Get([]byte(id)) != nil {
				out[id] = true
			}
		}
		return nil
	})
	return out, err
}
