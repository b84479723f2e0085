package digesttest

import (
	"slices"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/digest"
)

// TestPersistence checks that a persistent store keeps everything across a
// close and reopen. open must open (creating if needed) the store kept in
// dir; the suite closes what it opens.
func TestPersistence(t *testing.T, open func(t *testing.T, dir string) digest.Store) {
	dir := t.TempDir()
	s := open(t, dir)
	a, b := Sub("saaaaa", "C1", "U1", 0), Sub("sbbbbb", "C2", "U2", 1)
	must(t, s.Create(ctx, a))
	must(t, s.Create(ctx, b))
	must(t, s.Pause(ctx, "sbbbbb", "not in channel"))
	posted, chosen, claimed := Key("saaaaa", 0), Key("saaaaa", 1), Key("saaaaa", 2)
	for _, k := range []digest.RunKey{posted, chosen, claimed} {
		_, _, err := s.Claim(ctx, Claim(k, "C1"))
		must(t, err)
	}
	must(t, s.Choose(ctx, posted, []string{"p1", "p2"}, T0))
	must(t, s.MarkPosted(ctx, posted, "9.9", T0))
	must(t, s.Choose(ctx, chosen, []string{"p3"}, T0))
	must(t, s.Close())

	s = open(t, dir)
	defer s.Close()
	a.PostedCount = 2
	got, err := s.Get(ctx, "saaaaa")
	must(t, err)
	SameSub(t, got, a)
	got, err = s.Get(ctx, "sbbbbb")
	must(t, err)
	if !got.Paused || got.PauseReason != "not in channel" {
		t.Fatalf("pause lost on reopen: %+v", got)
	}
	ledger, _ := s.PostedIn(ctx, "C1", []string{"p1", "p2", "p3"})
	if !ledger["p1"] || !ledger["p2"] || ledger["p3"] {
		t.Fatalf("ledger after reopen = %v", ledger)
	}
	run, err := s.GetRun(ctx, posted)
	must(t, err)
	if run.State != digest.Posted || run.TS != "9.9" || !run.Scheduled.Equal(T0) || !run.ClaimedAt.Equal(T0.Add(time.Minute)) {
		t.Fatalf("posted run after reopen: %+v", run)
	}
	unfinished, _ := s.Unfinished(ctx)
	var keys []digest.RunKey
	for _, r := range unfinished {
		keys = append(keys, r.Key)
	}
	if !slices.Contains(keys, chosen) || !slices.Contains(keys, claimed) || len(keys) != 2 {
		t.Fatalf("unfinished after reopen = %v", keys)
	}
	// Claims still exclude after a reopen.
	if _, won, _ := s.Claim(ctx, Claim(claimed, "C1")); won {
		t.Fatal("a claim made before reopening was won again")
	}
}
