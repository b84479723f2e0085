package boltstore

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/fault"
)

// update runs fn in a write transaction. A panic inside bbolt (a page
// damaged after Open checked the file) becomes an error naming the store,
// not a crash; bbolt has rolled the transaction back by then.
func (s *Store) update(ctx context.Context, fn func(tx *bolt.Tx) error) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	defer s.recoverDamage(&err)
	return s.db.Update(fn)
}

// view runs fn in a read transaction, with update's panic handling.
func (s *Store) view(ctx context.Context, fn func(tx *bolt.Tx) error) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	defer s.recoverDamage(&err)
	return s.db.View(fn)
}

func (s *Store) recoverDamage(err *error) {
	if p := recover(); p != nil {
		*err = &DamageError{Path: s.path, Kind: Damaged, Problem: fmt.Sprintf("reading it failed: %v", p)}
	}
}

func getSub(tx *bolt.Tx, id string) (digest.Subscription, error) {
	return getJSON[digest.Subscription](tx, bucketSubs, id, "subscription")
}

func putSub(tx *bolt.Tx, sub digest.Subscription) error {
	v, err := json.Marshal(sub)
	if err != nil {
		return err
	}
	return tx.Bucket(bucketSubs).Put([]byte(sub.ID), v)
}

func (s *Store) Create(ctx context.Context, sub digest.Subscription) error {
	if err := sub.Validate(); err != nil {
		return err
	}
	return s.update(ctx, func(tx *bolt.Tx) error {
		if tx.Bucket(bucketSubs).Get([]byte(sub.ID)) != nil {
			return fmt.Errorf("subscription %s: %w", sub.ID, fault.Exists)
		}
		return putSub(tx, sub)
	})
}

func (s *Store) Get(ctx context.Context, id string) (sub digest.Subscription, err error) {
	err = s.view(ctx, func(tx *bolt.Tx) error {
		sub, err = getSub(tx, id)
		return err
	})
	return sub, err
}

func (s *Store) Delete(ctx context.Context, id string) error {
	return s.update(ctx, func(tx *bolt.Tx) error {
		if _, err := getSub(tx, id); err != nil {
			return err
		}
		return tx.Bucket(bucketSubs).Delete([]byte(id))
	})
}

// list scans every subscription: there are few (tens to hundreds), and a
// scan keeps the file free of secondary indexes that could drift.
func (s *Store) list(ctx context.Context, keep func(digest.Subscription) bool) ([]digest.Subscription, error) {
	var out []digest.Subscription
	err := s.view(ctx, func(tx *bolt.Tx) error {
		return tx.Bucket(bucketSubs).ForEach(func(k, v []byte) error {
			var sub digest.Subscription
			if err := json.Unmarshal(v, &sub); err != nil {
				return fmt.Errorf("subscription %s: corrupt record: %w", k, err)
			}
			if keep(sub) {
				out = append(out, sub)
			}
			return nil
		})
	})
	digest.SortSubscriptions(out)
	return out, err
}

func (s *Store) ByChannel(ctx context.Context, channelID string) ([]digest.Subscription, error) {
	return s.list(ctx, func(sub digest.Subscription) bool { return sub.ChannelID == channelID })
}

func (s *Store) ByCreator(ctx context.Context, userID string) ([]digest.Subscription, error) {
	return s.list(ctx, func(sub digest.Subscription) bool { return sub.CreatedBy == userID })
}

func (s *Store) Active(ctx context.Context) ([]digest.Subscription, error) {
	return s.list(ctx, func(sub digest.Subscription) bool { return !sub.Paused })
}

func (s *Store) modify(ctx context.Context, id string, fn func(*digest.Subscription)) error {
	return s.update(ctx, func(tx *bolt.Tx) error {
		sub, err := getSub(tx, id)
		if err != nil {
			return err
		}
		fn(&sub)
		return putSub(tx, sub)
	})
}

func (s *Store) Pause(ctx context.Context, id, reason string) error {
	return s.modify(ctx, id, func(sub *digest.Subscription) { digest.ApplyPause(sub, reason) })
}

func (s *Store) Resume(ctx context.Context, id string, at time.Time) error {
	return s.modify(ctx, id, func(sub *digest.Subscription) { digest.ApplyResume(sub, at) })
}
