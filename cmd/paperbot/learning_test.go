package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/paperbot/paperbot/bot/boltstore"
	"github.com/paperbot/paperbot/bot/digest/digesttest"
	"github.com/paperbot/paperbot/bot/memory"
)

// TestDigestDryRunShowsVotes: paperbot digest --dry-run ranks a channel's
// next digest by its votes and says which liked paper lifted a paper.
func TestDigestDryRunShowsVotes(t *testing.T) {
	clearEnv(t)
	dir := t.TempDir()
	t.Setenv("PAPERBOT_DATA_DIR", dir)
	ctx := context.Background()
	s, err := boltstore.Open(filepath.Join(dir, boltstore.FileName), boltstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sub := digesttest.Sub("sb2kq7", "C1", "U1", 0)
	sub.Topic = "language models"
	if err := s.Create(ctx, sub); err != nil {
		t.Fatal(err)
	}
	s.Close()
	dryRun := func() digestPreview {
		t.Helper()
		code, out, errOut := runCmd(t, t.Context(), "digest", "--dry-run", "--channel", "C1", "--json")
		var p digestPreview
		if code != exitOK || json.Unmarshal([]byte(out), &p) != nil || len(p.Digests) != 1 {
			t.Fatalf("exit %d: %s\n%s", code, errOut, out)
		}
		return p
	}
	first := dryRun().Digests[0].Papers
	if len(first) < 3 {
		t.Fatalf("first digest: %+v", first)
	}
	s, err = boltstore.Open(filepath.Join(dir, boltstore.FileName), boltstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for i, p := range first {
		v := memory.Down
		if i == len(first)-1 {
			v = memory.Up
		}
		if err := s.SetVote(ctx, memory.Vote{Channel: "C1", User: "U2", PaperID: p.ID, Value: v, At: digesttest.T0}); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.ID)
	}
	key := digesttest.Key("sb2kq7", 0)
	if _, _, err := s.Claim(ctx, digesttest.Claim(key, "C1")); err != nil {
		t.Fatal(err)
	}
	if err := s.Choose(ctx, key, ids, digesttest.T0); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkPosted(ctx, key, "1.1", digesttest.T0); err != nil {
		t.Fatal(err)
	}
	s.Close()
	liked := first[len(first)-1].Title
	lifted := 0
	for _, p := range dryRun().Digests[0].Papers {
		if p.LiftedBy != "" {
			lifted++
			if p.LiftedBy != liked || p.From < 2 {
				t.Errorf("%s lifted by %q from #%d, want by %q", p.ID, p.LiftedBy, p.From, liked)
			}
		}
	}
	if lifted == 0 {
		t.Error("the votes lifted no paper in the dry run")
	}
}
