package boltstore

import (
	"context"
	"encoding/binary"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Looked-up paper links (ingest.LinkFinder's cache) live in their own
// top-level bucket, made on first use like the threads': "records" maps
// the link key to 8 bytes of Unix nanoseconds stored at, then the value;
// "by_time" maps those 8 bytes + the key to nothing, so old entries are
// purged without reading the others.
var (
	bucketLinks      = []byte("links")
	bucketLinkRec    = []byte("records")
	bucketLinkByTime = []byte("by_time")
)

// linkKeep is how long a cached link is kept: longer than any LinkFinder
// trusts one (30 days for a found paper).
const linkKeep = 31 * 24 * time.Hour

// GetLink returns the value stored for key and when; ok is false when none is.
func (s *Store) GetLink(ctx context.Context, key string) (val []byte, at time.Time, ok bool, err error) {
	if err := ctx.Err(); err != nil {
		return nil, time.Time{}, false, err
	}
	err = s.view(ctx, func(tx *bolt.Tx) error {
		root := tx.Bucket(bucketLinks)
		if root == nil || root.Bucket(bucketLinkRec) == nil {
			return nil
		}
		raw := root.Bucket(bucketLinkRec).Get([]byte(key))
		if len(raw) < 8 {
			return nil
		}
		at = time.Unix(0, int64(binary.BigEndian.Uint64(raw[:8])))
		val, ok = append([]byte(nil), raw[8:]...), true
		return nil
	})
	return val, at, ok, err
}

// PutLink stores val for key at at, replacing what was there, and deletes
// up to a hundred entries stored more than 31 days before at.
func (s *Store) PutLink(ctx context.Context, key string, val []byte, at time.Time) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	stamp := make([]byte, 8)
	binary.BigEndian.PutUint64(stamp, uint64(at.UnixNano()))
	rec := append(append([]byte(nil), stamp...), val...)
	return s.update(ctx, func(tx *bolt.Tx) error {
		root, err := tx.CreateBucketIfNotExists(bucketLinks)
		if err != nil {
			return err
		}
		recs, err := root.CreateBucketIfNotExists(bucketLinkRec)
		if err != nil {
			return err
		}
		byTime, err := root.CreateBucketIfNotExists(bucketLinkByTime)
		if err != nil {
			return err
		}
		if old := recs.Get([]byte(key)); len(old) >= 8 {
			if err := byTime.Delete(append(append([]byte(nil), old[:8]...), key...)); err != nil {
				return err
			}
		}
		if err := recs.Put([]byte(key), rec); err != nil {
			return err
		}
		if err := byTime.Put(append(append([]byte(nil), stamp...), key...), nil); err != nil {
			return err
		}
		return purgeLinks(recs, byTime, at.Add(-linkKeep))
	})
}

// purgeLinks deletes up to maxPurge entries stored before cutoff.
func purgeLinks(recs, byTime *bolt.Bucket, cutoff time.Time) error {
	limit := make([]byte, 8)
	binary.BigEndian.PutUint64(limit, uint64(max(cutoff.UnixNano(), 0)))
	var stale [][]byte
	c := byTime.Cursor()
	for k, _ := c.First(); k != nil && len(stale) < maxPurge && len(k) >= 8 && string(k[:8]) < string(limit); k, _ = c.Next() {
		stale = append(stale, append([]byte(nil), k...))
	}
	for _, k := range stale {
		if err := recs.Delete(k[8:]); err != nil {
			return err
		}
		if err := byTime.Delete(k); err != nil {
			return err
		}
	}
	return nil
}
