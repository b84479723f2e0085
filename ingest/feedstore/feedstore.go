// Package feedstore keeps the ingest catalog and the sources' progress in
// one bbolt file beside the subscription store (PAPERBOT_DATA_DIR/feeds.db).
// It is a file of its own, not buckets in digests.db, so the subscription
// store's strictly checked schema is untouched and the catalog can be
// rebuilt (by fetching again) without going near subscriptions.
package feedstore

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/paperbot/paperbot/ingest"
)

// FileName is the store's file name inside PAPERBOT_DATA_DIR.
const FileName = "feeds.db"

// schemaVersion is the layout written; a file with another one is refused.
const schemaVersion = "1"

var (
	bucketMeta     = []byte("meta")
	bucketPapers   = []byte("papers")    // paper ID → JSON ingest.Entry
	bucketProgress = []byte("progress")  // source name → JSON ingest.Progress
	bucketPending  = []byte("pending")   // paper ID saved, not yet in the index → empty
	bucketChanges  = []byte("changes")   // change number (8 bytes, big-endian) → paper ID
	bucketChangeOf = []byte("change_of") // paper ID → its latest change number
	keySchema      = []byte("schema_version")
)

// ErrInUse is returned by Open when another process holds the file.
var ErrInUse = errors.New("the feed store is in use by another paperbot process (is paperbot serve running? it fetches on its schedule)")

// Store is an ingest.Store in a bbolt file. Safe for concurrent use; one
// process at a time.
type Store struct {
	db *bolt.DB
}

var (
	_ ingest.Store     = (*Store)(nil)
	_ ingest.ChangeLog = (*Store)(nil)
)

// Open opens or creates the store at path, waiting up to timeout (0: 2 s)
// for another process's lock.
func Open(path string, timeout time.Duration) (*Store, error) {
	if timeout <= 0 {
		timeout = 2 * time.Second
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: timeout})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("%s: %w", path, ErrInUse)
	}
	if err != nil {
		return nil, fmt.Errorf("feed store %s: %w", path, err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		meta, err := tx.CreateBucketIfNotExists(bucketMeta)
		if err != nil {
			return err
		}
		switch v := meta.Get(keySchema); {
		case v == nil:
			if err := meta.Put(keySchema, []byte(schemaVersion)); err != nil {
				return err
			}
		case string(v) != schemaVersion:
			return fmt.Errorf("schema version %s, this paperbot reads %s: move the file aside and run paperbot fetch to rebuild it", v, schemaVersion)
		}
		for _, b := range [][]byte{bucketPapers, bucketProgress, bucketPending, bucketChanges, bucketChangeOf} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("feed store %s: %w", path, err)
	}
	return &Store{db: db}, nil
}

// Close releases the file.
func (s *Store) Close() error { return s.db.Close() }

// Load returns every entry and progress.
func (s *Store) Load(ctx context.Context) ([]ingest.Entry, []ingest.Progress, error) {
	var entries []ingest.Entry
	var progress []ingest.Progress
	err := s.db.View(func(tx *bolt.Tx) error {
		if err := tx.Bucket(bucketPapers).ForEach(func(k, v []byte) error {
			var e ingest.Entry
			if err := json.Unmarshal(v, &e); err != nil {
				return fmt.Errorf("paper %s: %w", k, err)
			}
			entries = append(entries, e)
			return nil
		}); err != nil {
			return err
		}
		var err error
		progress, err = progressIn(tx)
		return err
	})
	if err != nil {
		return nil, nil, fmt.Errorf("feed store: %w", err)
	}
	return entries, progress, ctx.Err()
}

// Save stores entries and p in one transaction.
func (s *Store) Save(ctx context.Context, entries []ingest.Entry, p ingest.Progress) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if p.Source == "" {
		return errors.New("feed store: progress without a source name")
	}
	return s.db.Update(func(tx *bolt.Tx) error {
		papers, pending := tx.Bucket(bucketPapers), tx.Bucket(bucketPending)
		changes, changeOf := tx.Bucket(bucketChanges), tx.Bucket(bucketChangeOf)
		for _, e := range entries {
			b, err := json.Marshal(e)
			if err != nil {
				return err
			}
			if err := papers.Put([]byte(e.ID), b); err != nil {
				return err
			}
			if err := pending.Put([]byte(e.ID), nil); err != nil {
				return err
			}
			// One number a paper: its latest change's.
			if old := changeOf.Get([]byte(e.ID)); old != nil {
				if err := changes.Delete(old); err != nil {
					return err
				}
			}
			n, err := changes.NextSequence()
			if err != nil {
				return err
			}
			key := binary.BigEndian.AppendUint64(nil, n)
			if err := changes.Put(key, []byte(e.ID)); err != nil {
				return err
			}
			if err := changeOf.Put([]byte(e.ID), key); err != nil {
				return err
			}
		}
		b, err := json.Marshal(p)
		if err != nil {
			return err
		}
		return tx.Bucket(bucketProgress).Put([]byte(p.Source), b)
	})
}

// Pending lists the IDs saved and not yet applied, in ID order.
func (s *Store) Pending(ctx context.Context) ([]string, error) {
	var ids []string
	err := s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketPending).ForEach(func(k, _ []byte) error {
			ids = append(ids, string(k))
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("feed store: %w", err)
	}
	return ids, ctx.Err()
}

// Applied clears ids from the pending list.
func (s *Store) Applied(ctx context.Context, ids []string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketPending)
		for _, id := range ids {
			if err := b.Delete([]byte(id)); err != nil {
				return err
			}
		}
		return nil
	})
}

// Seq is the number of the latest change. Entries saved by a paperbot
// older than the numbering have none: ChangesSince(0) starts after them.
func (s *Store) Seq(ctx context.Context) (int64, error) {
	var n uint64
	err := s.db.View(func(tx *bolt.Tx) error {
		n = tx.Bucket(bucketChanges).Sequence()
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("feed store: %w", err)
	}
	return int64(n), ctx.Err()
}

// ChangesSince returns up to limit entries changed after seq, in order.
func (s *Store) ChangesSince(ctx context.Context, seq int64, limit int) ([]ingest.Entry, int64, error) {
	var out []ingest.Entry
	last := seq
	err := s.db.View(func(tx *bolt.Tx) error {
		papers := tx.Bucket(bucketPapers)
		c := tx.Bucket(bucketChanges).Cursor()
		for k, id := c.Seek(binary.BigEndian.AppendUint64(nil, uint64(seq)+1)); k != nil && len(out) < limit; k, id = c.Next() {
			var e ingest.Entry
			if err := json.Unmarshal(papers.Get(id), &e); err != nil {
				return fmt.Errorf("paper %s: %w", id, err)
			}
			out = append(out, e)
			last = int64(binary.BigEndian.Uint64(k))
		}
		return nil
	})
	if err != nil {
		return nil, seq, fmt.Errorf("feed store: %w", err)
	}
	return out, last, ctx.Err()
}

// Progress returns every source's progress.
func (s *Store) Progress(ctx context.Context) ([]ingest.Progress, error) {
	var progress []ingest.Progress
	err := s.db.View(func(tx *bolt.Tx) error {
		var err error
		progress, err = progressIn(tx)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("feed store: %w", err)
	}
	return progress, ctx.Err()
}

func progressIn(tx *bolt.Tx) ([]ingest.Progress, error) {
	var progress []ingest.Progress
	err := tx.Bucket(bucketProgress).ForEach(func(k, v []byte) error {
		var p ingest.Progress
		if err := json.Unmarshal(v, &p); err != nil {
			return fmt.Errorf("progress of %s: %w", k, err)
		}
		progress = append(progress, p)
		return nil
	})
	return progress, err
}
