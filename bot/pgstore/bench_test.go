package pgstore_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/bot/digest/digesttest"
)

// reportLatencies adds the p50 and p99 of lat to b's results.
func reportLatencies(b *testing.B, lat []time.Duration) {
	slices.Sort(lat)
	if len(lat) == 0 {
		return
	}
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}

// BenchmarkDeliveryDedup is a burst of events each delivered to two
// replicas at once (8 concurrent deliveries): claim and finish, as serve
// does per delivery. go test -bench . ./bot/pgstore/ with the database set.
func BenchmarkDeliveryDedup(b *testing.B) {
	u := freshDB(b)
	a, c := open(b, u), open(b, u)
	ctx := context.Background()
	var mu sync.Mutex
	var lat []time.Duration
	var next, wins atomic.Int64
	b.SetParallelism(4) // 4 × GOMAXPROCS deliveries at once
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := next.Add(1)
			s := a
			if i%2 == 1 {
				s = c
			}
			ev := fmt.Sprintf("event:Ev%d", i/2) // each event twice, on both replicas
			start := time.Now()
			won, err := s.ClaimDeliveries(ctx, []string{fmt.Sprintf("env:%d", i), ev}, time.Minute)
			if err != nil {
				b.Error(err)
				return
			}
			if won {
				wins.Add(1)
				if err := s.FinishDeliveries(ctx, []string{fmt.Sprintf("env:%d", i), ev}, true, 10*time.Minute); err != nil {
					b.Error(err)
				}
			}
			d := time.Since(start)
			mu.Lock()
			lat = append(lat, d)
			mu.Unlock()
		}
	})
	b.StopTimer()
	reportLatencies(b, lat)
	// Deliveries 1..n carry events 0..n/2.
	if n := next.Load(); wins.Load() != n/2+1 {
		b.Errorf("%d deliveries of %d events: %d handled, want each once", n, n/2+1, wins.Load())
	}
}

// BenchmarkDigestClaim is two replicas racing to claim each digest run.
func BenchmarkDigestClaim(b *testing.B) {
	u := freshDB(b)
	a, c := open(b, u), open(b, u)
	ctx := context.Background()
	if err := a.Create(ctx, digesttest.Sub("saaaaa", "C1", "U1", 0)); err != nil {
		b.Fatal(err)
	}
	var lat []time.Duration
	b.ResetTimer()
	for i := range b.N {
		key := digesttest.Key("saaaaa", i)
		var wg sync.WaitGroup
		var wins atomic.Int32
		start := time.Now()
		for _, s := range []interface {
			Claim(context.Context, digest.Run) (digest.Run, bool, error)
		}{a, c} {
			wg.Go(func() {
				_, won, err := s.Claim(ctx, digesttest.Claim(key, "C1"))
				if err != nil {
					b.Error(err)
				}
				if won {
					wins.Add(1)
				}
			})
		}
		wg.Wait()
		lat = append(lat, time.Since(start))
		if wins.Load() != 1 {
			b.Fatalf("run %s claimed %d times", key, wins.Load())
		}
	}
	b.StopTimer()
	reportLatencies(b, lat)
}
