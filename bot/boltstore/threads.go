package boltstore

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/paperbot/paperbot/bot/thread"
	"github.com/paperbot/paperbot/fault"
)

// Thread contexts live in their own top-level bucket, made on the first
// save: older files stay valid without a migration. Inside it, "records"
// maps "channel/ts" to the JSON bot.Thread and "expiry" maps the expiry
// (RFC 3339, sortable) + "|" + key to nothing, so that purging expired
// threads reads only those.
var (
	bucketThreads   = []byte("threads")
	bucketThreadRec = []byte("records")
	bucketThreadExp = []byte("expiry")
)

// maxPurge bounds the expired threads one save deletes, so a save stays quick.
const maxPurge = 100

// Threads is the store's thread.Store: the contexts of the threads the bot
// answered in.
func (s *Store) Threads() thread.Store { return threadStore{s} }

type threadStore struct{ s *Store }

var _ thread.Store = threadStore{}

// Save keeps t (replacing the thread's earlier context) until t.Expires,
// and deletes up to a hundred threads expired by then.
func (ts threadStore) Save(ctx context.Context, t thread.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := t.Validate(); err != nil {
		return err
	}
	key := []byte(thread.Key(t.Channel, t.TS))
	val, err := json.Marshal(t)
	if err != nil {
		return fmt.Errorf("save thread: %w", err)
	}
	return ts.s.update(ctx, func(tx *bolt.Tx) error {
		root, err := tx.CreateBucketIfNotExists(bucketThreads)
		if err != nil {
			return err
		}
		recs, err := root.CreateBucketIfNotExists(bucketThreadRec)
		if err != nil {
			return err
		}
		exp, err := root.CreateBucketIfNotExists(bucketThreadExp)
		if err != nil {
			return err
		}
		if old := recs.Get(key); old != nil {
			var prev thread.Context
			if json.Unmarshal(old, &prev) == nil {
				if err := exp.Delete(expiryKey(prev.Expires, key)); err != nil {
					return err
				}
			}
		}
		if err := recs.Put(key, val); err != nil {
			return err
		}
		if err := exp.Put(expiryKey(t.Expires, key), nil); err != nil {
			return err
		}
		// A thread saved now expires thread.Keep from now or sooner.
		return purgeThreads(recs, exp, t.Expires.Add(-thread.Keep))
	})
}

// Get returns the context saved for channel and ts; fault.NotFound when
// there is none or it expired at now.
func (ts threadStore) Get(ctx context.Context, channel, tsParent string, now time.Time) (thread.Context, error) {
	var t thread.Context
	if err := ctx.Err(); err != nil {
		return t, err
	}
	key := thread.Key(channel, tsParent)
	err := ts.s.view(ctx, func(tx *bolt.Tx) error {
		root := tx.Bucket(bucketThreads)
		if root == nil || root.Bucket(bucketThreadRec) == nil {
			return fmt.Errorf("thread %s: %w", key, fault.NotFound)
		}
		raw := root.Bucket(bucketThreadRec).Get([]byte(key))
		if raw == nil {
			return fmt.Errorf("thread %s: %w", key, fault.NotFound)
		}
		if err := json.Unmarshal(raw, &t); err != nil {
			return fmt.Errorf("thread %s: corrupt record: %w", key, err)
		}
		if !now.Before(t.Expires) {
			return fmt.Errorf("thread %s: expired: %w", key, fault.NotFound)
		}
		return nil
	})
	return t, err
}

// purgeThreads deletes up to maxPurge threads that expired before now.
func purgeThreads(recs, exp *bolt.Bucket, now time.Time) error {
	c := exp.Cursor()
	limit := expiryKey(now, nil)
	var stale [][]byte
	for k, _ := c.First(); k != nil && len(stale) < maxPurge; k, _ = c.Next() {
		if string(k) >= string(limit) {
			break
		}
		stale = append(stale, append([]byte(nil), k...))
	}
	for _, k := range stale {
		_, key, _ := bytes.Cut(k, []byte("|"))
		if err := recs.Delete(key); err != nil {
			return err
		}
		if err := exp.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// expiryKey sorts by time: a fixed-width UTC timestamp, "|", the thread key.
func expiryKey(at time.Time, key []byte) []byte {
	return append([]byte(at.UTC().Format("2006-01-02T15:04:05.000000000Z")+"|"), key...)
}
