package boltstore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/paperbot/paperbot/bot/boltstore"
	"github.com/paperbot/paperbot/bot/memory"
	"github.com/paperbot/paperbot/bot/thread"
)

// The store keeps thread contexts across a restart, as the in-memory store
// cannot.
func TestThreadConformance(t *testing.T) {
	stores := map[thread.Store]*boltstore.Store{}
	thread.TestStore(t, func(t *testing.T) thread.Store {
		s := open(t, filepath.Join(t.TempDir(), boltstore.FileName))
		stores[s.Threads()] = s
		return s.Threads()
	}, func(t *testing.T, ts thread.Store) thread.Store {
		s := stores[ts]
		s.Close() // closing twice (open's cleanup) is safe
		return open(t, s.Path()).Threads()
	})
}

// A file written before threads existed opens, and the threads bucket it
// gets on first use does not make the next open refuse it.
func TestThreadsBucketKeepsFileValid(t *testing.T) {
	path := filepath.Join(t.TempDir(), boltstore.FileName)
	s := open(t, path)
	now := time.Now()
	if err := s.Threads().Save(context.Background(), thread.Context{Channel: "C1", TS: "1.1", Papers: []string{"p"}, Expires: now.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if err := boltstore.Verify(path, boltstore.Options{}); err != nil {
		t.Fatalf("Verify after a thread was saved: %v", err)
	}
	if _, err := open(t, path).Threads().Get(context.Background(), "C1", "1.1", now); err != nil {
		t.Fatalf("thread lost on reopen: %v", err)
	}
}

// Saving purges threads that expired, so the file does not grow forever.
func TestThreadsExpiredArePurged(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), boltstore.FileName)).Threads()
	ctx := context.Background()
	old := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 3 {
		if err := s.Save(ctx, thread.Context{Channel: "C1", TS: fmt.Sprint(i), Papers: []string{"p"}, Expires: old.Add(thread.Keep)}); err != nil {
			t.Fatal(err)
		}
	}
	later := old.Add(3 * thread.Keep)
	if err := s.Save(ctx, thread.Context{Channel: "C1", TS: "new", Papers: []string{"p"}, Expires: later.Add(thread.Keep)}); err != nil {
		t.Fatal(err)
	}
	// Get at the old time would still see them were they kept.
	for i := range 3 {
		if _, err := s.Get(ctx, "C1", fmt.Sprint(i), old); err == nil {
			t.Errorf("thread %d, expired before the last save, is still stored", i)
		}
	}
}

// A version 1 store that already holds threads and cached links (made on
// first use before reading lists existed) is whole, migrates on open and
// keeps them: those buckets are optional in any schema version.
func TestVersion1WithThreadsAndLinksIsMigrated(t *testing.T) {
	path := writeV1(t)
	now := time.Now()
	th := thread.Context{Channel: "C1", TS: "1.1", Papers: []string{"p"}, Expires: now.Add(time.Hour)}
	rec, err := json.Marshal(th)
	if err != nil {
		t.Fatal(err)
	}
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, r := range []struct{ bucket, key, val string }{
			{"threads", thread.Key(th.Channel, th.TS), string(rec)},
			{"links", "arxiv:2609.28471", string(make([]byte, 8)) + `{"found":true}`}, // stored at + value
		} {
			root, err := tx.CreateBucket([]byte(r.bucket))
			if err != nil {
				return err
			}
			recs, err := root.CreateBucket([]byte("records"))
			if err != nil {
				return err
			}
			if err := recs.Put([]byte(r.key), []byte(r.val)); err != nil {
				return err
			}
		}
		return nil
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := boltstore.Verify(path, boltstore.Options{}); err != nil {
		t.Fatalf("Verify of a version 1 store with threads and links: %v", err)
	}
	s := open(t, path)
	ctx := context.Background()
	if _, err := s.Threads().Get(ctx, "C1", "1.1", now); err != nil {
		t.Errorf("thread lost by the migration: %v", err)
	}
	if val, _, ok, err := s.GetLink(ctx, "arxiv:2609.28471"); !ok || err != nil || string(val) != `{"found":true}` {
		t.Errorf("cached link lost by the migration: %q, %v, %v", val, ok, err)
	}
	if _, err := s.Save(ctx, memory.User("U1"), saved("a", 0, "U1")); err != nil {
		t.Fatalf("saving in the migrated store: %v", err)
	}
	s.Close()
	if err := boltstore.Verify(path, boltstore.Options{}); err != nil {
		t.Fatalf("Verify after the migration: %v", err)
	}
}
