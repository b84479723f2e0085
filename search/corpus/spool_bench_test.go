package corpus

import (
	"flag"
	"fmt"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"
)

var spoolPapers = flag.Int("spool.papers", 100_000, "papers in BenchmarkSpool's generated corpus")

// BenchmarkSpool loads a generated 100k-paper JSON Lines corpus (seed
// sentences, unique titles, deterministic; -args -spool.papers=N for
// another size) three ways and reports papers/s and the peak heap (live
// and not yet collected objects, sampled every 10 ms): spool spools it,
// load loads it into memory (LoadFilesStamped), each reads a spool back.
// Run with -benchtime=1x.
func BenchmarkSpool(b *testing.B) {
	path := filepath.Join(b.TempDir(), fmt.Sprintf("synthetic-%d.jsonl", *spoolPapers))
	synthetic{n: *spoolPapers}.write(b, path, seedSentences(b))
	patterns := []string{path}
	b.Run("spool", func(b *testing.B) {
		measure(b, func() int {
			s, _, err := SpoolFilesStamped(patterns, Limits{}, b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			s.Close()
			return s.Len()
		})
	})
	b.Run("load", func(b *testing.B) {
		measure(b, func() int {
			c, _, err := LoadFilesStamped(patterns, Limits{})
			if err != nil {
				b.Fatal(err)
			}
			return c.Len()
		})
	})
	b.Run("each", func(b *testing.B) {
		s, _, err := SpoolFilesStamped(patterns, Limits{}, b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		measure(b, func() int {
			n := 0
			if err := s.Each(func(p *Paper) error { n += len(p.Abstract); return nil }); err != nil {
				b.Fatal(err)
			}
			return s.Len()
		})
	})
}

// measure runs load b.N times, reporting papers/s and the peak heap.
func measure(b *testing.B, load func() (papers int)) {
	runtime.GC()
	peak := sampleHeap()
	papers := 0
	start := time.Now()
	b.ResetTimer()
	for b.Loop() {
		papers += load()
	}
	b.StopTimer()
	b.ReportMetric(float64(papers)/time.Since(start).Seconds(), "papers/s")
	b.ReportMetric(float64(peak())/(1<<20), "peak-heap-MB")
}

// sampleHeap samples the heap's objects every 10 ms until the returned
// function is called, which returns the largest sample.
func sampleHeap() func() uint64 {
	const name = "/memory/classes/heap/objects:bytes"
	s := []metrics.Sample{{Name: name}}
	var (
		mu   sync.Mutex
		peak uint64
	)
	read := func() {
		metrics.Read(s)
		mu.Lock()
		peak = max(peak, s[0].Value.Uint64())
		mu.Unlock()
	}
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			read()
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 {
		close(stop)
		<-done
		read()
		mu.Lock()
		defer mu.Unlock()
		return peak
	}
}
