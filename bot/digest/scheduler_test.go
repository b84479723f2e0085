package digest_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/digest"
)

var bg = context.Background()

// TestWeeksOfDigestsAcrossZonesAndDST runs six weeks around the spring and
// autumn clock changes in New York and Berlin, ticking every five minutes,
// and checks every digest came once, on a due day, at its local time.
func TestWeeksOfDigestsAcrossZonesAndDST(t *testing.T) {
	const step = 5 * time.Minute
	for _, season := range []struct {
		name       string
		start, end time.Time
	}{
		{"spring", time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC), time.Date(2025, 4, 10, 0, 0, 0, 0, time.UTC)},
		{"autumn", time.Date(2025, 10, 15, 0, 0, 0, 0, time.UTC), time.Date(2025, 11, 20, 0, 0, 0, 0, time.UTC)},
	} {
		t.Run(season.name, func(t *testing.T) {
			w := newWorld(t, season.start, digest.Config{Papers: 2})
			w.corpus.add(400, "graph neural networks")
			subs := []digest.Subscription{
				w.subscribe("snyrkk", "C1", "graph", digest.Schedule{Hour: 9, TZ: "America/New_York"}),
				w.subscribe("sny23x", "C2", "graph", digest.Schedule{Hour: 1, Minute: 30, TZ: "America/New_York", Every: digest.Daily}),
				w.subscribe("sbernn", "C3", "graph", digest.Schedule{Hour: 2, Minute: 30, TZ: "Europe/Berlin", Every: digest.Daily}),
				w.subscribe("stkyy2", "C4", "graph", digest.Schedule{Hour: 8, TZ: "Asia/Tokyo", Every: digest.Weekly, Weekday: time.Monday}),
				w.subscribe("saknd2", "C5", "graph", digest.Schedule{Hour: 7, Minute: 45, TZ: "Pacific/Auckland"}),
			}
			w.runUntil(season.end, step)
			posts := w.poster.all()
			noRepeats(t, posts)
			for _, sub := range subs {
				var want []digest.Occurrence
				for from := season.start; from.Before(season.end); from = from.Add(7 * 24 * time.Hour) {
					to := from.Add(7 * 24 * time.Hour)
					if to.After(season.end) {
						to = season.end
					}
					want = append(want, sub.Schedule.Between(from, to)...)
				}
				var got []post
				for _, p := range posts {
					if p.Key.SubscriptionID == sub.ID {
						got = append(got, p)
					}
				}
				if len(got) != len(want) {
					t.Errorf("%s: %d digests, want %d", sub.ID, len(got), len(want))
					continue
				}
				for i, p := range got {
					if p.Key.Day != want[i].Day {
						t.Errorf("%s: digest %d covers %s, want %s", sub.ID, i, p.Key.Day, want[i].Day)
					}
					if d := p.At.Sub(want[i].At); d < 0 || d >= step {
						t.Errorf("%s: digest for %s posted at %s, due %s", sub.ID, p.Key.Day, p.At.In(sub.Schedule.Location()), want[i].At)
					}
					if p.Late || len(p.Papers) != 2 {
						t.Errorf("%s: digest for %s late=%v papers=%v", sub.ID, p.Key.Day, p.Late, p.Papers)
					}
				}
			}
			c := w.sched.Counts()
			if c.Posted != int64(len(posts)) || c.SkippedLate != 0 || c.Failed != 0 {
				t.Errorf("counts %+v for %d posts", c, len(posts))
			}
		})
	}
}

// TestDSTDaysPostOnceAtTheShiftedTime pins the local clock times of the
// digests on the change days themselves.
func TestDSTDaysPostOnceAtTheShiftedTime(t *testing.T) {
	for _, c := range []struct {
		name     string
		sched    digest.Schedule
		day      digest.Date
		wantWall string // local time the digest for day was posted at
	}{
		{"New York spring forward, 02:30 runs at 03:30", digest.Schedule{Hour: 2, Minute: 30, TZ: "America/New_York", Every: digest.Daily}, date(2025, 3, 9), "03:30 EDT"},
		{"New York fall back, 01:30 runs once, first time", digest.Schedule{Hour: 1, Minute: 30, TZ: "America/New_York", Every: digest.Daily}, date(2025, 11, 2), "01:30 EDT"},
		{"New York 09:00 the day clocks change", digest.Schedule{Hour: 9, TZ: "America/New_York", Every: digest.Daily}, date(2025, 3, 9), "09:00 EDT"},
		{"Berlin spring forward, 02:30 runs at 03:30", digest.Schedule{Hour: 2, Minute: 30, TZ: "Europe/Berlin", Every: digest.Daily}, date(2025, 3, 30), "03:30 CEST"},
		{"Berlin fall back, 02:30 runs once, first time", digest.Schedule{Hour: 2, Minute: 30, TZ: "Europe/Berlin", Every: digest.Daily}, date(2025, 10, 26), "02:30 CEST"},
	} {
		t.Run(c.name, func(t *testing.T) {
			loc := zone(t, c.sched.TZ)
			start := time.Date(c.day.Year, c.day.Month, c.day.Day, 0, 0, 0, 0, loc).Add(-12 * time.Hour)
			w := newWorld(t, start, digest.Config{})
			w.subscribe("sdstdy", "C1", "graph", c.sched)
			w.runUntil(start.Add(36*time.Hour), time.Minute)
			var got []string
			for _, p := range w.poster.all() {
				if p.Key.Day == c.day {
					got = append(got, p.At.In(loc).Format("15:04 MST"))
				}
			}
			if !slices.Equal(got, []string{c.wantWall}) {
				t.Fatalf("digests for %s posted at %v, want once at %s", c.day, got, c.wantWall)
			}
		})
	}
}

// TestNoRepeatAndNewPapersBecomeEligible: a channel never sees a paper twice;
// when the topic runs dry nothing is posted, and papers added to the corpus
// later fill the next digest.
func TestNoRepeatAndNewPapersBecomeEligible(t *testing.T) {
	berlin := zone(t, "Europe/Berlin")
	start := time.Date(2025, 5, 5, 0, 0, 0, 0, berlin) // a Monday
	w := newWorld(t, start, digest.Config{})
	w.corpus = newCorpus(12, "graph neural networks")
	w.corpus.add(5, "protein folding") // other topic: never in this digest
	w.restart()
	w.subscribe("sgraph", "C1", "graph", digest.Schedule{Hour: 9, TZ: "Europe/Berlin", Every: digest.Daily})
	// Another channel with the same topic gets its own ledger.
	w.subscribe("sthers", "C2", "graph", digest.Schedule{Hour: 9, TZ: "Europe/Berlin", Every: digest.Daily})

	day := func(n int) time.Time { return start.AddDate(0, 0, n).Add(12 * time.Hour) }
	counts := func(channel string) []int {
		var out []int
		for _, p := range w.poster.all() {
			if p.Channel == channel {
				out = append(out, len(p.Papers))
			}
		}
		return out
	}
	w.runUntil(day(3), 10*time.Minute) // Mon..Thu: 5 + 5 + 2, then nothing new
	if got := counts("C1"); !slices.Equal(got, []int{5, 5, 2}) {
		t.Fatalf("C1 digests sizes %v, want [5 5 2] then silence", got)
	}
	if got := counts("C2"); !slices.Equal(got, []int{5, 5, 2}) {
		t.Fatalf("C2 digest sizes %v: channels must not share a ledger", got)
	}
	if r := w.run(digest.RunKey{SubscriptionID: "sgraph", Day: digest.DateOf(day(3))}); r.State != digest.Skipped || r.Reason != "nothing new" {
		t.Fatalf("Thursday's run = %+v, want skipped: nothing new", r)
	}
	w.corpus.add(3, "graph neural networks") // re-index with new files
	w.runUntil(day(4), 10*time.Minute)
	if got := counts("C1"); !slices.Equal(got, []int{5, 5, 2, 3}) {
		t.Fatalf("after adding papers: %v, want a fourth digest of the 3 new ones", got)
	}
	noRepeats(t, w.poster.all())
	sub, _ := w.store.Get(bg, "sgraph")
	if sub.PostedCount != 15 {
		t.Fatalf("PostedCount = %d, want 15", sub.PostedCount)
	}
	if c := w.sched.Counts(); c.NothingNew != 2 || c.Posted != 8 {
		t.Fatalf("counts %+v, want 2 nothing-new and 8 posted", c)
	}
}

func TestNothingNewLineWhenConfigured(t *testing.T) {
	start := time.Date(2025, 5, 5, 8, 0, 0, 0, time.UTC)
	w := newWorld(t, start, digest.Config{PostNothingNew: true})
	w.subscribe("squet2", "C1", "cryptography", digest.Schedule{Hour: 9, TZ: "UTC", Every: digest.Daily})
	w.runUntil(start.Add(2*time.Hour), time.Minute)
	posts := w.poster.all()
	if len(posts) != 1 || !posts[0].Nothing || len(posts[0].Papers) != 0 {
		t.Fatalf("posts = %+v, want one nothing-new line", posts)
	}
	if r := w.run(posts[0].Key); r.State != digest.Posted {
		t.Fatalf("run = %+v, want posted", r)
	}
}

// TestCatchUpAfterDowntime: a digest missed while the bot was down is posted
// late, saying which day it covers, within the grace period; beyond it the
// run is skipped, logged and counted, and the next day is normal again.
func TestCatchUpAfterDowntime(t *testing.T) {
	berlin := zone(t, "Europe/Berlin")
	mon := time.Date(2025, 5, 5, 0, 0, 0, 0, berlin)
	at := func(days, h, m int) time.Time {
		return mon.AddDate(0, 0, days).Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute)
	}
	week := []string{"2025-05-05", "2025-05-06", "2025-05-07", "2025-05-08", "2025-05-09"}
	for _, c := range []struct {
		name        string
		grace       time.Duration
		downUntil   time.Time // first tick after the outage (the bot was down from Monday 08:00)
		wantPosted  []string  // days with a digest, in order
		wantLate    []bool
		wantSkipped int64
	}{
		{"back 2 minutes late: on time", 0, at(0, 9, 2), week, []bool{false, false, false, false, false}, 0},
		{"back 5h late: caught up", 0, at(0, 14, 0), week, []bool{true, false, false, false, false}, 0},
		{"back 7h late: skipped", 0, at(0, 16, 0), week[1:], []bool{false, false, false, false}, 1},
		{"back 7h late with a 12h grace: caught up", 12 * time.Hour, at(0, 16, 0), week, []bool{true, false, false, false, false}, 0},
		{"down three days, back 1h after Thursday's time", 0, at(3, 10, 0), []string{"2025-05-08", "2025-05-09"}, []bool{true, false}, 3},
		{"down three days with 3-day grace: latest only", 72 * time.Hour, at(3, 10, 0), []string{"2025-05-08", "2025-05-09"}, []bool{true, false}, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t, mon.Add(-24*time.Hour), digest.Config{Grace: c.grace})
			w.subscribe("scatch", "C1", "graph", digest.Schedule{Hour: 9, TZ: "Europe/Berlin"})
			w.runUntil(at(0, 8, 0), 30*time.Minute)
			w.clock.Set(c.downUntil) // nothing ticked in between
			w.runUntil(at(4, 12, 0), 10*time.Minute)
			var days []string
			var late []bool
			for _, p := range w.poster.all() {
				days, late = append(days, p.Key.Day.String()), append(late, p.Late)
			}
			if !slices.Equal(days, c.wantPosted) || !slices.Equal(late, c.wantLate) {
				t.Fatalf("posted %v late %v, want %v late %v", days, late, c.wantPosted, c.wantLate)
			}
			if got := w.sched.Counts().SkippedLate; got != c.wantSkipped {
				t.Fatalf("SkippedLate = %d, want %d", got, c.wantSkipped)
			}
			for d := date(2025, 5, 5); d.Before(date(2025, 5, 10)); d = d.AddDays(1) {
				r := w.run(digest.RunKey{SubscriptionID: "scatch", Day: d})
				if !r.State.Done() {
					t.Fatalf("run for %s left %s", d, r.State)
				}
			}
		})
	}
}

// flakyStore fails MarkPosted while killed is set: the state a process
// killed between posting and recording leaves behind.
type flakyStore struct {
	digest.Store
	mu     sync.Mutex
	killed bool
}

func (s *flakyStore) MarkPosted(ctx context.Context, k digest.RunKey, ts string, at time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.killed {
		return errors.New("process killed")
	}
	return s.Store.MarkPosted(ctx, k, ts, at)
}

// TestRestartMidRun: whatever step a process dies at, the next one posts the
// digest exactly once.
func TestRestartMidRun(t *testing.T) {
	start := time.Date(2025, 5, 5, 8, 59, 0, 0, time.UTC)
	key := digest.RunKey{SubscriptionID: "scrash", Day: date(2025, 5, 5)}
	for _, c := range []struct {
		name string
		// die leaves the store as a process dying at some step would.
		die           func(w *world, fs *flakyStore)
		wantRecovered int64
	}{
		{"died after claiming", func(w *world, fs *flakyStore) {
			w.store.Claim(bg, digest.Run{Key: key, ChannelID: "C1", Scheduled: start.Add(time.Minute), ClaimedAt: start.Add(time.Minute)})
		}, 0},
		{"died after choosing papers", func(w *world, fs *flakyStore) {
			w.store.Claim(bg, digest.Run{Key: key, ChannelID: "C1", Scheduled: start.Add(time.Minute), ClaimedAt: start.Add(time.Minute)})
			w.store.Choose(bg, key, []string{"p007", "p003"}, start.Add(time.Minute))
		}, 0},
		{"died after posting, before recording", func(w *world, fs *flakyStore) {
			fs.killed = true
			w.tick()
			fs.killed = false
		}, 1},
		{"reply lost after posting", func(w *world, fs *flakyStore) {
			w.poster.afterPost = func(post) error { return errors.New("connection reset") }
			w.tick()
			w.poster.afterPost = nil
		}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t, start, digest.Config{})
			fs := &flakyStore{Store: w.store}
			w.store = fs
			w.restart()
			w.subscribe("scrash", "C1", "graph", digest.Schedule{Hour: 9, TZ: "UTC", Every: digest.Daily})
			w.clock.Set(start.Add(time.Minute))
			c.die(w, fs)
			w.restart() // a new process on the same store
			w.runUntil(start.Add(3*time.Hour), 30*time.Second)
			posts := w.poster.all()
			if len(posts) != 1 || posts[0].Key != key {
				t.Fatalf("posts = %+v, want exactly one for %s", posts, key)
			}
			r := w.run(key)
			if r.State != digest.Posted || r.TS != posts[0].TS || !slices.Equal(r.Papers, posts[0].Papers) {
				t.Fatalf("run = %+v, want posted with the message's ts and papers %v", r, posts[0].Papers)
			}
			if strings.Contains(c.name, "choosing") && !slices.Equal(posts[0].Papers, []string{"p007", "p003"}) {
				t.Fatalf("a recovered run must post the papers chosen before the crash, got %v", posts[0].Papers)
			}
			ledger, _ := w.store.PostedIn(bg, "C1", posts[0].Papers)
			if len(ledger) != len(posts[0].Papers) {
				t.Fatalf("ledger has %v of %v", ledger, posts[0].Papers)
			}
			if got := w.sched.Counts().Recovered; got != c.wantRecovered {
				t.Fatalf("Recovered = %d, want %d", got, c.wantRecovered)
			}
		})
	}
}

func TestTransientFailuresRetriedUntilGrace(t *testing.T) {
	start := time.Date(2025, 5, 5, 8, 59, 0, 0, time.UTC)
	t.Run("posted once after three failures", func(t *testing.T) {
		w := newWorld(t, start, digest.Config{})
		w.subscribe("sretry", "C1", "graph", digest.Schedule{Hour: 9, TZ: "UTC", Every: digest.Daily})
		w.poster.failNext = 3
		w.runUntil(start.Add(time.Hour), 30*time.Second)
		if posts := w.poster.all(); len(posts) != 1 {
			t.Fatalf("%d posts, want 1", len(posts))
		}
		if c := w.sched.Counts(); c.Retries != 3 || c.Posted != 1 {
			t.Fatalf("counts %+v", c)
		}
	})
	t.Run("given up when the grace period ends", func(t *testing.T) {
		w := newWorld(t, start, digest.Config{Grace: time.Hour})
		w.subscribe("sretry", "C1", "graph", digest.Schedule{Hour: 9, TZ: "UTC", Every: digest.Daily})
		w.poster.failNext = 1 << 30
		w.runUntil(start.Add(2*time.Hour), time.Minute)
		r := w.run(digest.RunKey{SubscriptionID: "sretry", Day: date(2025, 5, 5)})
		if r.State != digest.Failed || !strings.Contains(r.Reason, "500") || r.Attempts < 50 {
			t.Fatalf("run = %+v, want failed after ~60 attempts", r)
		}
		if c := w.sched.Counts(); c.Failed != 1 || c.Posted != 0 {
			t.Fatalf("counts %+v", c)
		}
	})
}

func TestUnpostableChannelPausesAndTellsCreator(t *testing.T) {
	for _, c := range []struct{ code, says string }{
		{"not_in_channel", "/invite @paperbot"},
		{"is_archived", "archived"},
		{"channel_not_found", "/invite @paperbot"},
		{"token_revoked", "reinstall"},
		{"missing_scope", "chat:write"},
	} {
		t.Run(c.code, func(t *testing.T) {
			start := time.Date(2025, 5, 5, 8, 59, 0, 0, time.UTC)
			w := newWorld(t, start, digest.Config{})
			w.subscribe("sgne22", "C1", "graph <!channel>", digest.Schedule{Hour: 9, TZ: "UTC", Every: digest.Daily})
			w.subscribe("sfne22", "C2", "graph", digest.Schedule{Hour: 9, TZ: "UTC", Every: digest.Daily})
			w.poster.unpostable["C1"] = c.code
			w.runUntil(start.Add(48*time.Hour), 10*time.Minute)
			sub, _ := w.store.Get(bg, "sgne22")
			if !sub.Paused || sub.PauseReason != digest.PauseReason(c.code) {
				t.Fatalf("subscription = %+v, want paused", sub)
			}
			dms := w.notifier.to("Usgne22")
			if len(dms) != 1 || !strings.Contains(dms[0], c.says) || !strings.Contains(dms[0], "/paper resume sgne22") {
				t.Fatalf("DMs = %q, want one saying %q and how to resume", dms, c.says)
			}
			if strings.Contains(dms[0], "<!channel>") {
				t.Fatalf("DM carries a ping from the topic: %q", dms[0])
			}
			if r := w.run(digest.RunKey{SubscriptionID: "sgne22", Day: date(2025, 5, 5)}); r.State != digest.Failed || r.Reason != c.code {
				t.Fatalf("run = %+v", r)
			}
			// Paused: no attempt on the next day; the other channel is unaffected.
			for _, p := range w.poster.all() {
				if p.Channel == "C1" {
					t.Fatalf("posted to the unpostable channel: %+v", p)
				}
			}
			if n := len(w.poster.all()); n != 2 {
				t.Fatalf("%d posts to C2 over two days, want 2", n)
			}
			if c := w.sched.Counts(); c.Paused != 1 || c.Failed != 1 {
				t.Fatalf("counts %+v", c)
			}

			// Fixed and resumed: the next scheduled digest comes; the days
			// missed while paused are not caught up.
			delete(w.poster.unpostable, "C1")
			if err := w.store.Resume(bg, "sgne22", w.clock.Now()); err != nil {
				t.Fatal(err)
			}
			w.runUntil(start.Add(72*time.Hour+30*time.Minute), 10*time.Minute)
			var c1 []string
			for _, p := range w.poster.all() {
				if p.Channel == "C1" {
					c1 = append(c1, p.Key.Day.String())
				}
			}
			if !slices.Equal(c1, []string{"2025-05-07", "2025-05-08"}) {
				t.Fatalf("after resume C1 got %v, want 2025-05-07 and 2025-05-08 only", c1)
			}
		})
	}
}

// TestFiftyDueAtOnce: 50 subscriptions due the same minute, posts failing
// at random, four at a time: each gets exactly one digest.
func TestFiftyDueAtOnce(t *testing.T) {
	start := time.Date(2025, 5, 5, 8, 59, 0, 0, time.UTC)
	w := newWorld(t, start, digest.Config{Concurrency: 4})
	w.corpus.add(300, "graph neural networks")
	for i := range 50 {
		w.subscribe("s"+idFor(i), fmt.Sprintf("C%02d", i%10), "graph", digest.Schedule{Hour: 9, TZ: "UTC", Every: digest.Daily})
	}
	var n int
	var mu sync.Mutex
	w.poster.afterPost = func(p post) error {
		mu.Lock()
		defer mu.Unlock()
		n++
		if n%3 == 0 {
			return errors.New("read timeout") // posted, but the reply was lost
		}
		return nil
	}
	w.poster.failNext = 10
	// Two overlapping ticks, as a slow tick and the next timer tick would be.
	w.clock.Set(start.Add(time.Minute))
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() { w.sched.Tick(bg, w.clock.Now()) })
	}
	wg.Wait()
	w.runUntil(start.Add(30*time.Minute), 30*time.Second)
	posts := w.poster.all()
	noRepeats(t, posts)
	if len(posts) != 50 {
		t.Fatalf("%d digests, want 50", len(posts))
	}
	for i := range 50 {
		r := w.run(digest.RunKey{SubscriptionID: "s" + idFor(i), Day: date(2025, 5, 5)})
		if r.State != digest.Posted {
			t.Fatalf("run %s = %s", r.Key, r.State)
		}
	}
}

// idFor returns five ID letters for i.
func idFor(i int) string {
	const a = "abcdefghjkmnpqrstuvwxyz23456789"
	return string([]byte{a[i/len(a)%len(a)], a[i%len(a)], 'x', 'y', 'z'})
}

func TestDeletedSubscriptionLeavesNoDanglingRun(t *testing.T) {
	start := time.Date(2025, 5, 5, 9, 1, 0, 0, time.UTC)
	w := newWorld(t, start, digest.Config{})
	w.subscribe("sdeet2", "C1", "graph", digest.Schedule{Hour: 9, TZ: "UTC", Every: digest.Daily})
	key := digest.RunKey{SubscriptionID: "sdeet2", Day: date(2025, 5, 5)}
	w.store.Claim(bg, digest.Run{Key: key, ChannelID: "C1", Scheduled: start, ClaimedAt: start})
	w.store.Delete(bg, "sdeet2")
	w.tick()
	if r := w.run(key); r.State != digest.Skipped {
		t.Fatalf("run = %+v, want skipped", r)
	}
	if len(w.poster.all()) != 0 {
		t.Fatal("posted for a deleted subscription")
	}
}

func TestPreview(t *testing.T) {
	start := time.Date(2025, 5, 5, 10, 0, 0, 0, time.UTC) // Monday, after today's run time
	w := newWorld(t, start, digest.Config{Papers: 3})
	sub := w.subscribe("sprevw", "C1", "graph", digest.Schedule{Hour: 9, TZ: "UTC"})
	d, err := w.sched.Preview(bg, sub, start)
	if err != nil {
		t.Fatal(err)
	}
	if d.Key.Day != date(2025, 5, 6) || len(d.Papers) != 3 || d.NothingNew {
		t.Fatalf("preview = %+v", d)
	}
	if runs, _ := w.store.Unfinished(bg); len(runs) != 0 || len(w.poster.all()) != 0 {
		t.Fatal("Preview must not claim or post")
	}
	ds, err := w.sched.PreviewChannel(bg, "C1", start)
	if err != nil || len(ds) != 1 || ds[0].Key != d.Key {
		t.Fatalf("PreviewChannel = %+v, %v", ds, err)
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	w := newWorld(t, time.Now(), digest.Config{})
	for name, cfg := range map[string]digest.Config{
		"missing store":     {Searcher: w.corpus, Poster: w.poster, Notifier: w.notifier},
		"too many papers":   {Store: w.store, Searcher: w.corpus, Poster: w.poster, Notifier: w.notifier, Papers: 500},
		"negative interval": {Store: w.store, Searcher: w.corpus, Poster: w.poster, Notifier: w.notifier, Interval: -time.Second},
	} {
		if _, err := digest.New(cfg); err == nil {
			t.Errorf("%s: New accepted it", name)
		}
	}
	s, err := digest.New(digest.Config{Store: w.store, Searcher: w.corpus, Poster: w.poster, Notifier: w.notifier})
	if err != nil {
		t.Fatal(err)
	}
	if c := s.Config(); c.Grace != 6*time.Hour || c.Papers != 5 || c.Concurrency != 4 || c.Interval != 30*time.Second || c.PostNothingNew {
		t.Fatalf("defaults = %+v", c)
	}
}

func TestRunTicksUntilCancelled(t *testing.T) {
	start := time.Date(2025, 5, 5, 8, 59, 0, 0, time.UTC)
	w := newWorld(t, start, digest.Config{Interval: time.Millisecond})
	w.subscribe("sxpps2", "C1", "graph", digest.Schedule{Hour: 9, TZ: "UTC", Every: digest.Daily})
	w.clock.Set(start.Add(90 * time.Second))
	posted := make(chan struct{}, 1)
	w.poster.afterPost = func(post) error {
		select {
		case posted <- struct{}{}:
		default:
		}
		return nil
	}
	ctx, cancel := context.WithCancel(bg)
	done := make(chan error)
	go func() { done <- w.sched.Run(ctx) }()
	select {
	case <-posted:
	case <-time.After(10 * time.Second):
		t.Fatal("Run posted nothing within 10s")
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run returned %v after cancel, want nil", err)
	}
}

// TestFindFailures: a run whose earlier post cannot be checked is retried
// while in grace, and given up (not left open forever) when the channel is
// gone or the grace period ends.
func TestFindFailures(t *testing.T) {
	start := time.Date(2025, 5, 5, 9, 1, 0, 0, time.UTC)
	key := digest.RunKey{SubscriptionID: "sfndxx", Day: date(2025, 5, 5)}
	setup := func(t *testing.T) *world {
		w := newWorld(t, start.Add(-time.Hour), digest.Config{Grace: time.Hour})
		w.subscribe("sfndxx", "C1", "graph", digest.Schedule{Hour: 9, TZ: "UTC", Every: digest.Daily})
		w.clock.Set(start)
		w.store.Claim(bg, digest.Run{Key: key, ChannelID: "C1", Scheduled: start.Add(-time.Minute), ClaimedAt: start})
		w.store.Choose(bg, key, []string{"p001"}, start)
		return w
	}
	t.Run("transient, then found nothing: posted once", func(t *testing.T) {
		w := setup(t)
		w.poster.findErr = errors.New("history: timeout")
		w.tick()
		if r := w.run(key); r.State != digest.Posting || r.Attempts != 1 {
			t.Fatalf("run = %+v, want still posting after one attempt", r)
		}
		w.poster.findErr = nil
		w.runUntil(start.Add(10*time.Minute), time.Minute)
		if posts := w.poster.all(); len(posts) != 1 || posts[0].Papers[0] != "p001" {
			t.Fatalf("posts = %+v", posts)
		}
	})
	t.Run("channel gone: paused and failed", func(t *testing.T) {
		w := setup(t)
		w.poster.findErr = &digest.UnpostableError{Code: "channel_not_found"}
		w.tick()
		if r := w.run(key); r.State != digest.Failed {
			t.Fatalf("run = %+v", r)
		}
		if s, _ := w.store.Get(bg, "sfndxx"); !s.Paused {
			t.Fatal("not paused")
		}
	})
	t.Run("deleted subscription, channel gone: failed", func(t *testing.T) {
		w := setup(t)
		w.store.Delete(bg, "sfndxx")
		w.poster.findErr = &digest.UnpostableError{Code: "channel_not_found"}
		w.tick()
		if r := w.run(key); r.State != digest.Failed {
			t.Fatalf("run = %+v", r)
		}
	})
	t.Run("failing past the grace period: failed", func(t *testing.T) {
		w := setup(t)
		w.poster.findErr = errors.New("history: 500")
		w.runUntil(start.Add(2*time.Hour), 5*time.Minute)
		if r := w.run(key); r.State != digest.Failed || len(w.poster.all()) != 0 {
			t.Fatalf("run = %+v, posts %d", r, len(w.poster.all()))
		}
	})
}
