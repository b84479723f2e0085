package boltstore_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/paperbot/paperbot/bot/boltstore"
	"github.com/paperbot/paperbot/bot/memory"
	"github.com/paperbot/paperbot/bot/memory/memorytest"
)

var (
	t0    = memorytest.T0
	saved = memorytest.Saved
	ids   = memorytest.IDs
)

func TestMemoryConformance(t *testing.T) {
	memorytest.TestStore(t, func(t *testing.T) memory.Store {
		return open(t, filepath.Join(t.TempDir(), boltstore.FileName))
	})
}

// writeV1 writes a store as paperbot wrote them before reading lists.
func writeV1(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), boltstore.FileName)
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, name := range []string{"subscriptions", "runs", "open_runs", "ledger"} {
			if _, err := tx.CreateBucket([]byte(name)); err != nil {
				return err
			}
		}
		meta, err := tx.CreateBucket([]byte("meta"))
		if err != nil {
			return err
		}
		return meta.Put([]byte("schema_version"), []byte("1"))
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	return path
}

func TestVersion1StoreIsMigratedOnOpen(t *testing.T) {
	path := writeV1(t)
	if err := boltstore.Verify(path, boltstore.Options{}); err != nil {
		t.Fatalf("a version 1 store is refused: %v", err)
	}
	ro, err := boltstore.OpenReadOnly(path, boltstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if l, err := ro.List(context.Background(), memory.User("U1")); err != nil || len(l) != 0 {
		t.Fatalf("read-only version 1 list: %v, %v", l, err)
	}
	ro.Close()
	s := open(t, path)
	if _, err := s.Save(context.Background(), memory.User("U1"), saved("a", 0, "U1")); err != nil {
		t.Fatalf("saving in a migrated store: %v", err)
	}
	s.Close()
	db, _ := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	defer db.Close()
	db.View(func(tx *bolt.Tx) error {
		if v := string(tx.Bucket([]byte("meta")).Get([]byte("schema_version"))); v != strconv.Itoa(boltstore.SchemaVersion) {
			t.Errorf("schema version after open %s", v)
		}
		return nil
	})
}

// A version 2 store that lost its votes bucket is damage, not version 1.
func TestVersion2WithoutVotesIsDamaged(t *testing.T) {
	path := filepath.Join(t.TempDir(), boltstore.FileName)
	open(t, path).Close()
	db, _ := bolt.Open(path, 0o600, nil)
	db.Update(func(tx *bolt.Tx) error { return tx.DeleteBucket([]byte("votes")) })
	db.Close()
	if err := boltstore.Verify(path, boltstore.Options{}); !errors.Is(err, boltstore.ErrDamaged) || !strings.Contains(err.Error(), `"votes"`) {
		t.Fatalf("Verify: %v, want damage naming votes", err)
	}
}

// Check and repair cover lists and votes: a record that does not decode is
// named and dropped, the rest is kept.
func TestRepairKeepsListsAndVotes(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), boltstore.FileName)
	s := open(t, path)
	for i, id := range []string{"a", "b", "c"} {
		s.Save(ctx, memory.User("U1"), saved(id, i, "U1"))
		s.SetVote(ctx, memory.Vote{Channel: "C1", User: "U" + id, PaperID: "p", Value: memory.Up, At: t0})
	}
	s.Save(ctx, memory.Channel("C1"), saved("z", 0, "U2"))
	s.Close()
	db, _ := bolt.Open(path, 0o600, nil)
	err := db.Update(func(tx *bolt.Tx) error {
		if err := tx.Bucket([]byte("lists")).Bucket([]byte("user:U1")).Put([]byte("b"), []byte(`{"paper":`)); err != nil {
			return err
		}
		if err := tx.Bucket([]byte("votes")).Bucket([]byte("C1")).Put([]byte("p Ua"), []byte(`{"channel":"C1","user":"Ua","paper":"p","value":7}`)); err != nil {
			return err
		}
		_, err := tx.Bucket([]byte("lists")).CreateBucket([]byte("team:T1"))
		return err
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := boltstore.Verify(path, boltstore.Options{}); !errors.Is(err, boltstore.ErrDamaged) {
		t.Fatalf("Verify of a store with bad list records: %v", err)
	}
	r, err := boltstore.Repair(path, boltstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lost := strings.Join(r.Lost, "\n")
	for _, want := range []string{`lists/user:U1/"b"`, `votes/C1/"p Ua"`, `"team:T1"`} {
		if !strings.Contains(lost, want) {
			t.Errorf("lost does not name %s:\n%s", want, lost)
		}
	}
	if r.Saved != 3 || r.Votes != 2 {
		t.Errorf("kept %d saved and %d votes, want 3 and 2", r.Saved, r.Votes)
	}
	s = open(t, path)
	if l, _ := s.List(ctx, memory.User("U1")); ids(l) != "c,a" {
		t.Errorf("repaired list %s, want c,a", ids(l))
	}
	if v, _ := s.Votes(ctx, "C1"); len(v) != 2 {
		t.Errorf("repaired votes %d, want 2", len(v))
	}
	if _, err := os.Stat(r.Copy); err != nil {
		t.Error(err)
	}
}
