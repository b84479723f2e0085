package boltstore_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/boltstore"
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
