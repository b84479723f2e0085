package digest_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/boltstore"
	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/search"
	"github.com/paperbot/paperbot/seeds"
)

// TestWeeksOnTheSeedIndexAndBolt runs three weeks of daily digests on the
// real seed index and the bbolt store, restarting the scheduler every day:
// papers come best first, never twice, until the topic runs dry.
func TestWeeksOnTheSeedIndexAndBolt(t *testing.T) {
	corpus, err := search.LoadFS(seeds.FS, "*.txt")
	if err != nil {
		t.Fatal(err)
	}
	ix, err := search.Open(context.Background(), corpus, search.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	store, err := boltstore.Open(filepath.Join(t.TempDir(), boltstore.FileName), boltstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()

	start := time.Date(2025, 3, 3, 0, 0, 0, 0, time.UTC)
	w := newWorld(t, start, digest.Config{Papers: 4})
	w.store, w.corpus = store, nil
	subs := []digest.Subscription{
		{ID: "smwrn2", ChannelID: "C1", CreatedBy: "U1", Topic: "learning", Schedule: digest.Schedule{Hour: 8, TZ: "Europe/Berlin", Every: digest.Daily}},
		{ID: "sprtn2", ChannelID: "C1", CreatedBy: "U1", Topic: "protein conformations", Schedule: digest.Schedule{Hour: 8, TZ: "Europe/Berlin", Every: digest.Daily}},
		{ID: "sgrph2", ChannelID: "C2", CreatedBy: "U2", Topic: "graph", Schedule: digest.Schedule{Hour: 17, TZ: "America/New_York"}},
	}
	for _, s := range subs {
		s.CreatedAt = start
		if err := store.Create(context.Background(), s); err != nil {
			t.Fatal(err)
		}
	}
	for day := range 21 {
		cfg := w.cfg
		cfg.Store, cfg.Searcher, cfg.Poster, cfg.Notifier, cfg.Now = store, ix, w.poster, w.notifier, w.clock.Now
		s, err := digest.New(cfg) // a new process every day
		if err != nil {
			t.Fatal(err)
		}
		w.sched = s
		w.runUntil(start.AddDate(0, 0, day+1), 20*time.Minute)
	}
	posts := w.poster.all()
	noRepeats(t, posts)
	perSub := map[string]int{}
	for _, p := range posts {
		perSub[p.Key.SubscriptionID] += len(p.Papers)
	}
	for _, s := range subs {
		got, _ := store.Get(context.Background(), s.ID)
		if got.PostedCount != perSub[s.ID] || perSub[s.ID] == 0 {
			t.Errorf("%s: PostedCount %d, posted %d papers", s.ID, got.PostedCount, perSub[s.ID])
		}
	}
	if open, _ := store.Unfinished(context.Background()); len(open) != 0 {
		t.Fatalf("unfinished runs left: %+v", open)
	}
	if err := store.Check(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d digests over 21 days: %v papers per subscription", len(posts), perSub)
}
