package boltstore_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/paperbot/paperbot/bot/boltstore"
	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/bot/digest/digesttest"
)

func open(t *testing.T, path string) *boltstore.Store {
	t.Helper()
	s, err := boltstore.Open(path, boltstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestConformance(t *testing.T) {
	digesttest.TestStore(t, func(t *testing.T) digest.Store {
		return open(t, filepath.Join(t.TempDir(), boltstore.FileName))
	})
}

func TestPersistence(t *testing.T) {
	digesttest.TestPersistence(t, func(t *testing.T, dir string) digest.Store {
		return open(t, filepath.Join(dir, boltstore.FileName))
	})
}

func TestOpenCreatesDirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data", "nested", boltstore.FileName)
	s := open(t, path)
	if s.Path() != path {
		t.Fatalf("Path() = %q, want %q", s.Path(), path)
	}
	if err := s.Check(); err != nil {
		t.Fatalf("new file fails Check: %v", err)
	}
}

func TestRefusesNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), boltstore.FileName)
	s := open(t, path)
	s.Close()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte("meta")).Put([]byte("schema_version"), []byte("99"))
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	_, err = boltstore.Open(path, boltstore.Options{})
	if !errors.Is(err, digest.ErrSchemaTooNew) {
		t.Fatalf("error = %v, want ErrSchemaTooNew", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "schema version 99") || !strings.Contains(msg, fmt.Sprintf("reads up to %d", boltstore.SchemaVersion)) {
		t.Fatalf("error does not say which versions: %q", msg)
	}
	// The refused file is untouched: reading it still says 99.
	db, _ = bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	defer db.Close()
	db.View(func(tx *bolt.Tx) error {
		if v := string(tx.Bucket([]byte("meta")).Get([]byte("schema_version"))); v != "99" {
			t.Errorf("schema version rewritten to %q", v)
		}
		return nil
	})
}

func TestSecondOpenTimesOut(t *testing.T) {
	path := filepath.Join(t.TempDir(), boltstore.FileName)
	open(t, path)
	start := time.Now()
	// bbolt locks with flock, which is per open file description, so a
	// second Open in this process contends like a second process would.
	_, err := boltstore.Open(path, boltstore.Options{Timeout: 200 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "locked by another process") {
		t.Fatalf("second open: error = %v, want a lock timeout", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("second open took %s despite a 200ms timeout", d)
	}
}

func TestCancelledContext(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), boltstore.FileName))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.Create(ctx, digesttest.Sub("saaaaa", "C1", "U1", 0)); !errors.Is(err, context.Canceled) {
		t.Fatalf("Create with a cancelled context: %v", err)
	}
}
