package lease_test

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/lease"
	"github.com/paperbot/paperbot/bot/pgstore"
	"github.com/paperbot/paperbot/bot/pgstore/pgtest"
)

func openStore(t *testing.T, u string) *pgstore.Store {
	t.Helper()
	s, err := pgstore.Open(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// job counts how many replicas run it at once and who ran it last.
type job struct {
	running, most atomic.Int32
	mu            sync.Mutex
	last          string
	started       time.Time
}

func (j *job) run(who string) func(context.Context) error {
	return func(ctx context.Context) error {
		n := j.running.Add(1)
		defer j.running.Add(-1)
		for {
			m := j.most.Load()
			if n <= m || j.most.CompareAndSwap(m, n) {
				break
			}
		}
		j.mu.Lock()
		j.last, j.started = who, time.Now()
		j.mu.Unlock()
		<-ctx.Done()
		return ctx.Err()
	}
}

func (j *job) runner() (string, time.Time) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.last, j.started
}

// One replica runs the job; when it stops, or its database connection dies
// (as when the machine is lost), another takes over within the lease's TTL
// and one heartbeat; never do two run it at once.
func TestOneReplicaRunsTheJob(t *testing.T) {
	u, _ := pgtest.Fresh(t)
	const ttl = 800 * time.Millisecond
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	var j job
	stores := []*pgstore.Store{openStore(t, u), openStore(t, u), openStore(t, u)}
	cancels := make([]context.CancelFunc, 3)
	var wg sync.WaitGroup
	for i, s := range stores {
		ctx, cancel := context.WithCancel(t.Context())
		cancels[i] = cancel
		r := lease.Runner{Store: s, Holder: string(rune('a' + i)), TTL: ttl, Log: log}
		wg.Go(func() {
			if err := r.Run(ctx, "scheduler", j.run(r.Holder)); err != nil {
				t.Error(err)
			}
		})
	}
	defer func() {
		for _, c := range cancels {
			c()
		}
		wg.Wait()
		if j.most.Load() != 1 {
			t.Errorf("%d replicas ran the job at once", j.most.Load())
		}
	}()
	waitRunner := func(not string, within time.Duration) string {
		t.Helper()
		deadline := time.Now().Add(within)
		for time.Now().Before(deadline) {
			if who, _ := j.runner(); who != "" && who != not && j.running.Load() == 1 {
				return who
			}
			time.Sleep(10 * time.Millisecond)
		}
		t.Fatalf("no replica but %q runs the job after %s", not, within)
		return ""
	}
	first := waitRunner("", 2*time.Second)

	// A clean stop releases the lease: the next takes over within a heartbeat.
	stop := time.Now()
	cancels[first[0]-'a']()
	second := waitRunner(first, ttl)
	t.Logf("takeover after a clean stop: %s", time.Since(stop).Round(time.Millisecond))

	// A lost holder (its connections gone, no release): the others wait for
	// the lease to expire, then one takes over.
	lostAt := time.Now()
	stores[second[0]-'a'].Close()
	third := waitRunner(second, ttl+ttl/2)
	took := time.Since(lostAt)
	t.Logf("takeover after the holder was lost: %s (TTL %s)", took.Round(time.Millisecond), ttl)
	if third == first {
		t.Fatalf("the stopped replica %q runs the job", first)
	}
}
