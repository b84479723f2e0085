// Package memorytest is the conformance suite every memory.Store passes:
// bot/boltstore's and the in-memory one (bot/memory/inmem).
package memorytest

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/memory"
	"github.com/paperbot/paperbot/fault"
	"github.com/paperbot/paperbot/search"
)

// T0 is the suite's clock.
var T0 = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

// Saved is a list entry for paper id saved minutes after T0 by user.
func Saved(id string, minutes int, by string) memory.Saved {
	return memory.Saved{Paper: search.Paper{ID: id, Title: "Paper " + id}, SavedAt: T0.Add(time.Duration(minutes) * time.Minute), SavedBy: by}
}

// IDs joins a list's paper IDs with commas.
func IDs(list []memory.Saved) string {
	var out []string
	for _, s := range list {
		out = append(out, s.Paper.ID)
	}
	return strings.Join(out, ",")
}

// TestStore runs the suite; open returns a new, empty store for each case.
func TestStore(t *testing.T, open func(t *testing.T) memory.Store) {
	t.Run("lists keep one entry, newest first", func(t *testing.T) { testLists(t, open(t)) })
	t.Run("votes: the latest counts", func(t *testing.T) { testVotes(t, open(t)) })
	t.Run("forget deletes a user's votes and list", func(t *testing.T) { testForget(t, open(t)) })
}

func testLists(t *testing.T, s memory.Store) {
	ctx := context.Background()
	u := memory.User("U1")
	for i, id := range []string{"a", "b", "c"} {
		if added, err := s.Save(ctx, u, Saved(id, i, "U1")); err != nil || !added {
			t.Fatalf("save %s: added %v, %v", id, added, err)
		}
	}
	if added, err := s.Save(ctx, u, Saved("a", 10, "U1")); err != nil || added {
		t.Fatalf("saving a twice: added %v, %v", added, err)
	}
	list, err := s.List(ctx, u)
	if err != nil || IDs(list) != "c,b,a" {
		t.Fatalf("list %s (%v), want c,b,a", IDs(list), err)
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
	if IDs(list) != "b,a" || !list[0].Read || list[1].Read {
		t.Fatalf("after read and remove: %+v", list)
	}
	if other, err := s.List(ctx, memory.User("U2")); err != nil || len(other) != 0 {
		t.Fatalf("U2 sees %s (%v)", IDs(other), err)
	}
	if ch, _ := s.List(ctx, memory.Channel("U1")); len(ch) != 0 {
		t.Fatalf("a channel list with a user's ID shows %s", IDs(ch))
	}
	if _, err := s.Save(ctx, memory.User(""), Saved("x", 0, "")); !errors.Is(err, fault.Invalid) {
		t.Fatalf("owner without ID: %v", err)
	}
	if _, err := s.Save(ctx, u, memory.Saved{Paper: search.Paper{ID: "x"}}); !errors.Is(err, fault.Invalid) {
		t.Fatalf("entry without a time: %v", err)
	}
}

func testVotes(t *testing.T, s memory.Store) {
	ctx := context.Background()
	vote := func(ch, user, paper string, v int, at int) {
		t.Helper()
		if err := s.SetVote(ctx, memory.Vote{Channel: ch, User: user, PaperID: paper, Value: v, At: T0.Add(time.Duration(at) * time.Minute)}); err != nil {
			t.Fatal(err)
		}
	}
	vote("C1", "U1", "a", memory.Up, 0)
	vote("C1", "U1", "a", memory.Down, 1)
	vote("C1", "U2", "a", memory.Up, 2)
	vote("C2", "U1", "a", memory.Up, 3)
	if v, _ := s.VoteOf(ctx, "C1", "U1", "a"); v != memory.Down {
		t.Fatalf("U1's vote in C1 = %d, want the latest (down)", v)
	}
	votes, err := s.Votes(ctx, "C1")
	if err != nil || len(votes) != 2 || votes[0].User != "U1" {
		t.Fatalf("C1's votes %+v (%v), want two, oldest first", votes, err)
	}
	if tl := memory.Tallies(votes)["a"]; tl != (memory.Tally{Up: 1, Down: 1}) {
		t.Fatalf("C1 tally %v", tl)
	}
	if err := s.ClearVote(ctx, "C1", "U2", "a"); err != nil {
		t.Fatal(err)
	}
	if err := s.ClearVote(ctx, "C9", "U2", "a"); err != nil {
		t.Fatalf("clearing no vote: %v", err)
	}
	if v, _ := s.VoteOf(ctx, "C1", "U2", "a"); v != 0 {
		t.Fatalf("cleared vote still %d", v)
	}
	if err := s.SetVote(ctx, memory.Vote{Channel: "C1", User: "U1", PaperID: "a", Value: 3}); !errors.Is(err, fault.Invalid) {
		t.Fatalf("vote of 3: %v", err)
	}
}

func testForget(t *testing.T, s memory.Store) {
	ctx := context.Background()
	for _, v := range []memory.Vote{{Channel: "C1", User: "U1", PaperID: "a", Value: memory.Up, At: T0},
		{Channel: "C2", User: "U1", PaperID: "a", Value: memory.Down, At: T0}, {Channel: "C1", User: "U2", PaperID: "a", Value: memory.Up, At: T0}} {
		if err := s.SetVote(ctx, v); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Save(ctx, memory.User("U1"), Saved("a", 0, "U1")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Save(ctx, memory.Channel("C1"), Saved("b", 0, "U1")); err != nil {
		t.Fatal(err)
	}
	nv, ns, err := s.Forget(ctx, "U1")
	if err != nil || nv != 2 || ns != 1 {
		t.Fatalf("forget U1: %d votes, %d saved, %v; want 2, 1", nv, ns, err)
	}
	if l, _ := s.List(ctx, memory.User("U1")); len(l) != 0 {
		t.Fatalf("U1's list survives: %s", IDs(l))
	}
	ch, _ := s.List(ctx, memory.Channel("C1"))
	if IDs(ch) != "b" || ch[0].SavedBy != "" {
		t.Fatalf("channel list after forget: %+v", ch)
	}
	for _, c := range []string{"C1", "C2"} {
		if v, _ := s.VoteOf(ctx, c, "U1", "a"); v != 0 {
			t.Fatalf("U1's vote in %s survives", c)
		}
	}
	if v, _ := s.VoteOf(ctx, "C1", "U2", "a"); v != memory.Up {
		t.Fatal("forgetting U1 took U2's vote")
	}
	if _, _, err := s.Forget(ctx, ""); !errors.Is(err, fault.Invalid) {
		t.Fatalf("forget nobody: %v", err)
	}
}
