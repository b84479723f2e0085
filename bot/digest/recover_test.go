package digest_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/digest"
)

// panickyStore is a Store whose reads of one subscription, or whose listing
// of unfinished runs, panic, as a damaged record once did in the bbolt
// store ("index out of range").
type panickyStore struct {
	digest.Store
	mu            sync.Mutex
	badSub        string // GetRun of this subscription's runs panics
	badClaim      string // Claim of this subscription's runs panics
	badUnfinished int    // the next n Unfinished calls panic
}

func (p *panickyStore) GetRun(ctx context.Context, key digest.RunKey) (digest.Run, error) {
	if key.SubscriptionID == p.badSub {
		var runs []digest.Run
		_ = runs[len(key.SubscriptionID)] // index out of range
	}
	return p.Store.GetRun(ctx, key)
}

func (p *panickyStore) Claim(ctx context.Context, r digest.Run) (digest.Run, bool, error) {
	if r.Key.SubscriptionID == p.badClaim {
		panic("damaged record")
	}
	return p.Store.Claim(ctx, r)
}

func (p *panickyStore) Unfinished(ctx context.Context) ([]digest.Run, error) {
	p.mu.Lock()
	bad := p.badUnfinished > 0
	if bad {
		p.badUnfinished--
	}
	p.mu.Unlock()
	if bad {
		panic("invalid page type")
	}
	return p.Store.Unfinished(ctx)
}

// TestPanicInOneRunIsRecoveredAndCounted: a subscription whose run lookups
// panic, and a run whose claim panics, are logged with their stacks and
// counted; the other channels' digests go out in the same tick, and later
// ticks go on.
func TestPanicInOneRunIsRecoveredAndCounted(t *testing.T) {
	start := time.Date(2025, 3, 10, 7, 0, 0, 0, time.UTC) // a Monday
	var logs bytes.Buffer
	w := newWorld(t, start, digest.Config{Papers: 2, Log: slog.New(slog.NewTextHandler(&logs, nil))})
	ps := &panickyStore{Store: w.store}
	w.store = ps
	w.restart()
	w.subscribe("sgudd2", "C1", "graph", digest.Schedule{Hour: 9, TZ: "UTC", Every: digest.Daily})
	w.subscribe("sbadd2", "C2", "graph", digest.Schedule{Hour: 9, TZ: "UTC", Every: digest.Daily})
	w.subscribe("sgudd3", "C3", "graph", digest.Schedule{Hour: 9, TZ: "UTC", Every: digest.Daily})
	w.subscribe("sbadd3", "C4", "graph", digest.Schedule{Hour: 9, TZ: "UTC", Every: digest.Daily})
	ps.badSub, ps.badClaim = "sbadd2", "sbadd3"

	w.clock.Set(start.Add(2 * time.Hour)) // 09:00 UTC
	w.tick()                              // fails the test if Tick returns an error; a panic would end the test binary
	if got := w.sched.Counts().Panics; got != 2 {
		t.Fatalf("no panic counted; counts %+v", w.sched.Counts())
	}
	channels := map[string]bool{}
	for _, p := range w.poster.all() {
		channels[p.Channel] = true
	}
	if !channels["C1"] || !channels["C3"] || channels["C2"] || channels["C4"] {
		t.Fatalf("digests went to %v, want C1 and C3 despite the panics for C2 and C4", channels)
	}
	if !strings.Contains(logs.String(), "recovered from a panic") || !strings.Contains(logs.String(), "sbadd2") ||
		!strings.Contains(logs.String(), "sbadd3/2025-03-10") ||
		!strings.Contains(logs.String(), "goroutine") {
		t.Errorf("the panic is not logged with its run and stack:\n%s", logs.String())
	}

	// Repaired: the next day's tick posts it.
	ps.badSub, ps.badClaim = "", ""
	w.clock.Set(start.Add(26 * time.Hour))
	w.tick()
	for _, p := range w.poster.all() {
		channels[p.Channel] = true
	}
	if !channels["C2"] || !channels["C4"] {
		t.Fatalf("digests went to %v: C2 and C4 never got theirs after the store stopped panicking", channels)
	}
}

// TestRunSurvivesPanickingTicks: Run keeps ticking after ticks that panic
// while collecting work, and returns cleanly when cancelled.
func TestRunSurvivesPanickingTicks(t *testing.T) {
	start := time.Date(2025, 3, 10, 8, 0, 0, 0, time.UTC)
	w := newWorld(t, start, digest.Config{Interval: time.Millisecond})
	ps := &panickyStore{Store: w.store, badUnfinished: 3}
	w.store = ps
	w.restart()
	w.subscribe("sgudd2", "C1", "graph", digest.Schedule{Hour: 9, TZ: "UTC", Every: digest.Daily})
	w.clock.Set(start.Add(time.Hour))

	posted := make(chan struct{}, 1)
	w.poster.afterPost = func(post) error {
		select {
		case posted <- struct{}{}:
		default:
		}
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.sched.Run(ctx) }()
	select { // posted once the panics stop: Run kept ticking
	case <-posted:
	case err := <-done:
		t.Fatalf("Run returned %v while panics were recovered", err)
	case <-time.After(10 * time.Second):
		cancel()
		t.Fatalf("no digest after the panics; counts %+v", w.sched.Counts())
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	if got := w.sched.Counts().Panics; got != 3 {
		t.Fatalf("Panics = %d, want 3", got)
	}
}
