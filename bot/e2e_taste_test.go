package bot

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/bot/slacktest"
	"github.com/paperbot/paperbot/bot/taste"
	"github.com/paperbot/paperbot/search"
)

// startTasteBot is startDigestBot whose digests learn from the votes kept
// in the same store, as `paperbot serve` wires them.
func startTasteBot(t *testing.T, cfg digest.Config) *digestBot {
	t.Helper()
	ix := testIndex(t)
	store := memoryStore(t)
	return launchDigestBot(t, store, store, taste.Searcher{Searcher: ix, Votes: store, Vectors: taste.TermVectors{Index: ix}}, cfg,
		harnessOpts{bot: []Option{WithMemory(store)}, search: ix, config: func(c *Config) { c.ClickWindow = time.Nanosecond }})
}

// TestE2EVotesReorderTheNextDigest: two channels follow the same topic and
// get the same first digest; in one, a reader likes its last paper and
// dislikes the others. Its next digest differs from the other channel's,
// says which liked paper lifted a card, and holds only papers the topic
// finds.
func TestE2EVotesReorderTheNextDigest(t *testing.T) {
	b := startTasteBot(t, digest.Config{Papers: 3})
	for _, ch := range []string{"CVOTING01", "CQUIET001"} {
		b.srv.SetChannel(ch, slacktest.Channel{Name: strings.ToLower(ch), Member: true})
		b.srv.SetUser(slacktest.User{ID: "UALICE001", TZ: "UTC"})
		b.subscribe("UALICE001", ch, "language models at 09:00 daily")
	}
	b.tickAt(time.Date(2025, 3, 10, 9, 0, 0, 0, time.UTC))
	voting, quiet := b.digests("CVOTING01"), b.digests("CQUIET001")
	if len(voting) != 1 || len(quiet) != 1 {
		t.Fatalf("first digests: %d and %d", len(voting), len(quiet))
	}
	first := paperIDs(t, voting[0])
	if !slices.Equal(first, paperIDs(t, quiet[0])) || len(first) != 3 {
		t.Fatalf("first digests differ: %v and %v", first, paperIDs(t, quiet[0]))
	}
	for i, act := range []string{"vote:down:0", "vote:down:1", "vote:up:2"} {
		click(t, b.harness, b.digests("CVOTING01")[0], "UBOB00001", act)
		if err := b.srv.WaitFor(wait, func() bool { return b.digests("CVOTING01")[0].Edits == i+1 }); err != nil {
			t.Fatalf("vote %s not shown on the digest", act)
		}
	}
	liked, _ := testIndex(t).Get(first[2])

	// The dry run shows the effect and why before the digest posts.
	out, err := DigestDryRun(context.Background(), b.store, taste.Searcher{Searcher: testIndex(t), Votes: b.store, Vectors: taste.TermVectors{Index: testIndex(t)}},
		"CVOTING01", 3, time.Date(2025, 3, 10, 10, 0, 0, 0, time.UTC), digest.Fresh{})
	if err != nil || !strings.Contains(out, "Because this channel liked “"+liked.Headline) {
		t.Errorf("dry run (%v):\n%s", err, out)
	}

	b.tickAt(time.Date(2025, 3, 11, 9, 0, 0, 0, time.UTC))
	voting, quiet = b.digests("CVOTING01"), b.digests("CQUIET001")
	if len(voting) != 2 || len(quiet) != 2 {
		t.Fatalf("second digests: %d and %d", len(voting), len(quiet))
	}
	learned, plain := paperIDs(t, voting[1]), paperIDs(t, quiet[1])
	if slices.Equal(learned, plain) {
		t.Fatalf("the votes changed nothing: both channels got %v", plain)
	}
	text := wireText(voting[1].Blocks)
	if !strings.Contains(text, "Because this channel liked “"+EscapeInline(liked.Headline)) {
		t.Errorf("no card says the liked paper lifted it:\n%s", text)
	}
	onTopic := map[string]bool{}
	res, err := testIndex(t).Search(context.Background(), search.Request{Text: "language models", Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Results {
		onTopic[r.ID] = true
	}
	for _, id := range learned {
		if !onTopic[id] || slices.Contains(first, id) {
			t.Errorf("paper %s is off the topic or was posted already", id)
		}
	}

}
