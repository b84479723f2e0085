package boltstore_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/paperbot/paperbot/bot/boltstore"
	"github.com/paperbot/paperbot/bot/memory"
	"github.com/paperbot/paperbot/fault"
	"github.com/paperbot/paperbot/search"
)

var t0 = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

func saved(id string, minutes int, by string) memory.Saved {
	return memory.Saved{Paper: search.Paper{ID: id, Title: "Paper " + id}, SavedAt: t0.Add(time.Duration(minutes) * time.Minute), SavedBy: by}
}

func ids(list []memory.Saved) string {
	var out []string
	for _, s := range list {
		out = append(out, s.Paper.ID)
	}
	return strings.Join(out, ",")
}

func TestListsKeepOneEntryNewestFirst(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), boltstore.FileName))
	u := memory.User("U1")
	for i, id := range []string{"a", "b", "c"} {
		if added, err := s.Save(ctx, u, saved(id, i, "U1")); err != nil || !added {
			t.Fatalf("save %s: added %v, %v", id, added, err)
		}
	}
	if added, err := s.Save(ctx, u, saved("a", 10, "U1")); err != nil || added {
		t.Fatalf("saving a twice: added %v, %v", added, err)
	}
	list, err := s.List(ctx, u)
	if err != nil || ids(list) != "c,b,a" {
		t.Fatalf("list %s (%v), want c,b,a", ids(list), err)
	}
	if err := s.SetRead(ctx, u, "b", true); err != nil {
		t.Fatal(err)
	}
	if err := s.Remove(ctx, u, "c"); err != nil {
		t.Fatal(err)
	}
	if err := s.Remove(ctx, u, "c"); !errors.Is(err, fault.NotFound) {
		t.Fatalf("removing twice: %v, want NotFound", err)
	}
	if err := s.SetRead(ctx, memory.User("U2"), "a", true); !errors.Is(err, fault.NotFound) {
		t.Fatalf("marking on another user's list: %v, want NotFound", err)
	}
	list, _ = s.List(ctx, u)
	if ids(list) != "b,a" || !list[0].Read || list[1].Read {
		t.Fatalf("after read and remove: %+v", list)
	}
	if other, _ := s.List(ctx, memory.User("U2")); len(other) != 0 {
		t.Fatalf("U2 sees %s", ids(other))
	}
	if _, err := s.Save(ctx, memory.User(""), saved("x", 0, "")); !errors.Is(err, fault.Invalid) {
		t.Fatalf("owner without ID: %v", err)
	}
}

func TestVotesLatestCountsAndForget(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), boltstore.FileName))
	vote := func(ch, user, paper string, v int) {
		t.Helper()
		if err := s.SetVote(ctx, memory.Vote{Channel: ch, User: user, PaperID: paper, Value: v, At: t0}); err != nil {
			t.Fatal(err)
		}
	}
	vote("C1", "U1", "a", memory.Up)
	vote("C1", "U1", "a", memory.Down)
	vote("C1", "U2", "a", memory.Up)
	vote("C2", "U1", "a", memory.Up)
	if v, _ := s.VoteOf(ctx, "C1", "U1", "a"); v != memory.Down {
		t.Fatalf("U1's vote in C1 = %d, want the latest (down)", v)
	}
	votes, _ := s.Votes(ctx, "C1")
	if tl := memory.Tallies(votes)["a"]; tl != (memory.Tally{Up: 1, Down: 1}) {
		t.Fatalf("C1 tally %v", tl)
	}
	if err := s.ClearVote(ctx, "C1", "U2", "a"); err != nil {
		t.Fatal(err)
	}
	if v, _ := s.VoteOf(ctx, "C1", "U2", "a"); v != 0 {
		t.Fatalf("cleared vote still %d", v)
	}
	if err := s.SetVote(ctx, memory.Vote{Channel: "C1", User: "U1", PaperID: "a", Value: 3}); !errors.Is(err, fault.Invalid) {
		t.Fatalf("vote of 3: %v", err)
	}

	if _, err := s.Save(ctx, memory.User("U1"), saved("a", 0, "U1")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Save(ctx, memory.Channel("C1"), saved("b", 0, "U1")); err != nil {
		t.Fatal(err)
	}
	nv, ns, err := s.Forget(ctx, "U1")
	if err != nil || nv != 2 || ns != 1 {
		t.Fatalf("forget U1: %d votes, %d saved, %v; want 2, 1", nv, ns, err)
	}
	if l, _ := s.List(ctx, memory.User("U1")); len(l) != 0 {
		t.Fatalf("U1's list survives: %s", ids(l))
	}
	ch, _ := s.List(ctx, memory.Channel("C1"))
	if ids(ch) != "b" || ch[0].SavedBy != "" {
		t.Fatalf("channel list after forget: %+v", ch)
	}
	for _, c := range []string{"C1", "C2"} {
		if v, _ := s.VoteOf(ctx, c, "U1", "a"); v != 0 {
			t.Fatalf("U1's vote in %s survives", c)
		}
	}
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
