package boltstore

import (
	"context"
	"encoding/binary"
	"time"

	bolt "go.etcd.io/bbolt"
)

// bucketLinks caches looked-up paper links (ingest.LinkFinder): link key →
// 8 bytes of Unix nanoseconds stored at, then the value. Made on first use,
// like the threads bucket.
var bucketLinks = []byte("links")

// GetLink returns the value stored for key and when; ok is false when none is.
func (s *Store) GetLink(ctx context.Context, key string) (val []byte, at time.Time, ok bool, err error) {
	if err := ctx.Err(); err != nil {
		return nil, time.Time{}, false, err
	}
	err = s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketLinks)
		if b == nil {
			return nil
		}
		raw := b.Get([]byte(key))
		if len(raw) < 8 {
			return nil
		}
		at = time.Unix(0, int64(binary.BigEndian.Uint64(raw[:8])))
		val, ok = append([]byte(nil), raw[8:]...), true
		return nil
	})
	return val, at, ok, err
}

// PutLink stores val for key at at, replacing what was there.
func (s *Store) PutLink(ctx context.Context, key string, val []byte, at time.Time) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	rec := make([]byte, 8, 8+len(val))
	binary.BigEndian.PutUint64(rec, uint64(at.UnixNano()))
	rec = append(rec, val...)
	return s.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketLinks)
		if err != nil {
			return err
		}
		return b.Put([]byte(key), rec)
	})
}
