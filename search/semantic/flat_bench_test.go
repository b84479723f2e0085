package semantic

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"
)

// benchFlat fills a set with n 256-dim 8-bit vectors in 20,000 clusters
// (papers on one topic lie close together), made as codes directly: a
// million float vectors would take longer to draw than the scans.
func benchFlat(b *testing.B, n int) *Flat {
	b.Helper()
	f, err := NewFlat(256)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(11, 12))
	centroids := make([][]int, 20000)
	for i := range centroids {
		centroids[i] = make([]int, 256)
		for j := range centroids[i] {
			centroids[i][j] = rng.IntN(121) - 60
		}
	}
	f.codes = make([]byte, 0, n*256)
	codes := make([]byte, 256)
	for i := range n {
		c := centroids[rng.IntN(len(centroids))]
		for j := range codes {
			codes[j] = byte(int8(max(-127, min(127, c[j]+rng.IntN(121)-60))))
		}
		if err := f.Add(i, Vec{dims: 256, bits: 8, codes: codes, inv: codeInv(codes, 8)}); err != nil {
			b.Fatal(err)
		}
	}
	return f
}

// benchQueries returns queries near papers of f: a paper's vector plus
// 1.5 times as much noise, as a question lies near, not on, its papers.
func benchQueries(f *Flat, n int) [][]float32 {
	rng := rand.New(rand.NewPCG(13, 14))
	qs := make([][]float32, n)
	for i := range qs {
		v, _ := f.Get(rng.IntN(f.Len()))
		q := v.Float32()
		noise := randomUnit(rng, 1, len(q))[0]
		for j := range q {
			q[j] += 1.5 * noise[j]
		}
		Normalize(q)
		qs[i] = q
	}
	return qs
}

// BenchmarkFlatTopK is the semantic candidate stage at the sizes:
// the 100 nearest of n papers to a 256-dim query, through a filter (as the
// index passes one for deleted papers), reporting the p99 of single queries.
func BenchmarkFlatTopK(b *testing.B) {
	for _, n := range []int{5900, 100_000, 1_000_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			f := benchFlat(b, n)
			runtime.GC()
			runtime.ReadMemStats(&after)
			perPaper := float64(after.HeapAlloc-before.HeapAlloc) / float64(n)
			qs := benchQueries(f, 64)
			keep := func(doc int) bool { return doc%1000 != 999 }
			var times []time.Duration
			i := 0
			cpu := cpuTime()
			for b.Loop() {
				start := time.Now()
				if _, err := f.TopK(qs[i%len(qs)], 100, keep); err != nil {
					b.Fatal(err)
				}
				times = append(times, time.Since(start))
				i++
			}
			b.ReportMetric(float64(cpuTime()-cpu)/1e6/float64(b.N), "cpu-ms/op")
			b.ReportMetric(perPaper, "heap-B/paper")
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}

// BenchmarkFlatRecall measures the coarse stage: recall@10 and @100
// against the exact scan, and the time of each.
func BenchmarkFlatRecall(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchRecall(b, n) })
	}
}

func benchRecall(b *testing.B, n int) {
	f := benchFlat(b, n)
	qs := benchQueries(f, 50)
	keep := coarseKeep
	var found10, found100 int
	var exact, coarse time.Duration
	for b.Loop() {
		found10, found100 = 0, 0
		exact, coarse = 0, 0
		for _, q := range qs {
			start := time.Now()
			want := f.topKExact(q, 100, nil)
			exact += time.Since(start)
			start = time.Now()
			got := f.topKCoarse(q, 100, keep, nil)
			coarse += time.Since(start)
			found10 += overlap(got[:10], want[:10])
			found100 += overlap(got, want)
		}
	}
	b.ReportMetric(float64(found10)/float64(10*len(qs)), "recall@10")
	b.ReportMetric(float64(found100)/float64(100*len(qs)), "recall@100")
	b.ReportMetric(float64(exact.Microseconds())/1000/float64(len(qs)), "exact-ms")
	b.ReportMetric(float64(coarse.Microseconds())/1000/float64(len(qs)), "coarse-ms")
}

func overlap(a, b []Hit) int {
	in := map[int]bool{}
	for _, h := range b {
		in[h.Doc] = true
	}
	n := 0
	for _, h := range a {
		if in[h.Doc] {
			n++
		}
	}
	return n
}
