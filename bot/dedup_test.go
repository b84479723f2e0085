package bot

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

// fakeClock is a settable clock for tests.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func keys(k ...string) []dedupKey {
	out := make([]dedupKey, len(k))
	for i, s := range k {
		out[i] = dedupKey{key: s, keep: 10 * time.Minute}
	}
	return out
}

func TestDedupHandledKeyIsDuplicateUntilItExpires(t *testing.T) {
	clock := &fakeClock{t: time.Unix(1000, 0)}
	d := newDedup(100, clock.now)
	if res, _ := d.claim(keys("event:E1")); res != claimed {
		t.Fatalf("first claim = %v, want claimed", res)
	}
	d.finish(keys("event:E1"), true)
	clock.advance(9 * time.Minute)
	if res, _ := d.claim(keys("event:E1")); res != duplicate {
		t.Fatalf("redelivery after 9m = %v, want duplicate", res)
	}
	clock.advance(2 * time.Minute)
	if res, _ := d.claim(keys("event:E1")); res != claimed {
		t.Fatalf("redelivery after 11m = %v, want claimed", res)
	}
}

func TestDedupFailedFirstAttemptIsRetried(t *testing.T) {
	d := newDedup(100, nil)
	d.claim(keys("event:E1"))
	d.finish(keys("event:E1"), false)
	if res, _ := d.claim(keys("event:E1")); res != claimed {
		t.Fatalf("redelivery after failure = %v, want claimed", res)
	}
}

func TestDedupAnyKeyMakesADuplicate(t *testing.T) {
	d := newDedup(100, nil)
	d.claim(keys("env:A", "event:E1"))
	d.finish(keys("env:A", "event:E1"), true)
	// Same event, new envelope: still a duplicate.
	if res, _ := d.claim(keys("env:B", "event:E1")); res != duplicate {
		t.Fatalf("same event_id in a new envelope = %v, want duplicate", res)
	}
	// The rejected claim must not have reserved env:B.
	if res, _ := d.claim(keys("env:B")); res != claimed {
		t.Fatalf("env:B = %v, want claimed", res)
	}
}

func TestDedupBusyWaitsForTheHolder(t *testing.T) {
	tests := []struct {
		name    string
		handled bool
		want    claimResult
	}{
		{"holder replied", true, duplicate},
		{"holder failed", false, claimed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDedup(100, nil)
			d.claim(keys("event:E1"))
			res, wait := d.claim(keys("event:E1"))
			if res != busy || wait == nil {
				t.Fatalf("second claim = %v, want busy with a wait channel", res)
			}
			d.finish(keys("event:E1"), tt.handled)
			select {
			case <-wait:
			case <-time.After(5 * time.Second):
				t.Fatal("wait channel not closed by finish")
			}
			if res, _ := d.claim(keys("event:E1")); res != tt.want {
				t.Fatalf("claim after holder finished = %v, want %v", res, tt.want)
			}
		})
	}
}

func TestDedupMemoryIsBounded(t *testing.T) {
	clock := &fakeClock{t: time.Unix(0, 0)}
	d := newDedup(50, clock.now)
	for i := range 500 {
		k := keys(fmt.Sprintf("event:%d", i))
		d.claim(k)
		d.finish(k, true)
		clock.advance(time.Millisecond)
	}
	if n := d.len(); n > 50 {
		t.Fatalf("%d keys remembered, max 50", n)
	}
	// The newest are kept.
	if res, _ := d.claim(keys("event:499")); res != duplicate {
		t.Fatalf("newest key = %v, want duplicate", res)
	}
}

func TestDedupShortKeepForClicks(t *testing.T) {
	clock := &fakeClock{t: time.Unix(0, 0)}
	d := newDedup(100, clock.now)
	click := []dedupKey{{key: "click:U1:ts:abstract:0:ID", keep: 3 * time.Second}}
	d.claim(click)
	d.finish(click, true)
	clock.advance(time.Second)
	if res, _ := d.claim(click); res != duplicate {
		t.Fatalf("double click = %v, want duplicate", res)
	}
	clock.advance(3 * time.Second)
	if res, _ := d.claim(click); res != claimed {
		t.Fatalf("click after the window = %v, want claimed", res)
	}
}

func TestDedupConcurrentClaimsOneWinner(t *testing.T) {
	d := newDedup(1000, nil)
	var wg sync.WaitGroup
	var mu sync.Mutex
	winners := 0
	for range 50 {
		wg.Go(func() {
			if res, _ := d.claim(keys("event:race")); res == claimed {
				mu.Lock()
				winners++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if winners != 1 {
		t.Fatalf("%d goroutines claimed the same key, want 1", winners)
	}
}
