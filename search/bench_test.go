package search

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/paperbot/paperbot/seeds"
)

// The real corpora (../shared/corpora from the repository root); benchmarks
// on them are skipped when the files are absent.
var corpusFiles = []string{
	"../../shared/corpora/dotd-NeurIPS2024Scrape/*.csv",
	"../../shared/corpora/papercopilot-paperlists/nips2018.json",
}

var (
	bigOnce sync.Once
	bigCorp *Corpus
	bigErr  error
)

// bigCorpus loads the ~5,900 papers of the real corpora once.
func bigCorpus(tb testing.TB) *Corpus {
	tb.Helper()
	for _, p := range corpusFiles {
		if m, _ := filepath.Glob(p); len(m) == 0 {
			tb.Skipf("corpus %s absent", p)
		}
	}
	bigOnce.Do(func() { bigCorp, bigErr = LoadFiles(corpusFiles) })
	if bigErr != nil {
		tb.Fatalf("load corpora: %v", bigErr)
	}
	return bigCorp
}

var (
	bigIdxOnce sync.Once
	bigIdx     *Index
	bigIdxErr  error
)

// bigIndex returns an in-memory index of the real corpora, built once and
// shared by the tests that only read it; skipped in -short mode.
func bigIndex(t *testing.T) *Index {
	t.Helper()
	if testing.Short() {
		t.Skip("indexes 5,900 papers")
	}
	c := bigCorpus(t)
	bigIdxOnce.Do(func() { bigIdx, bigIdxErr = Open(context.Background(), c, Options{}) })
	if bigIdxErr != nil {
		t.Fatalf("index corpora: %v", bigIdxErr)
	}
	return bigIdx
}

// benchBuild reports the papers indexed per second.
func benchBuild(b *testing.B, c *Corpus, dir bool) {
	ctx := context.Background()
	b.ReportAllocs()
	start := time.Now()
	for b.Loop() {
		opts := Options{}
		if dir {
			opts.Dir = b.TempDir()
		}
		ix, err := Open(ctx, c, opts)
		if err != nil {
			b.Fatal(err)
		}
		if err := ix.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(c.Papers)*b.N)/time.Since(start).Seconds(), "papers/s")
}

func BenchmarkBuildSeeds(b *testing.B) {
	c, err := LoadFS(seeds.FS, "*.txt")
	if err != nil {
		b.Fatal(err)
	}
	benchBuild(b, c, false)
}

func BenchmarkBuildCorpusDisk(b *testing.B)   { benchBuild(b, bigCorpus(b), true) }
func BenchmarkBuildCorpusMemory(b *testing.B) { benchBuild(b, bigCorpus(b), false) }

// benchQuery runs BenchmarkQueries round robin with snippets and answers and
// reports latency percentiles.
func benchQuery(b *testing.B, ix *Index) {
	benchQueries(b, ix, BenchmarkQueries)
}

// benchQueries searches queries in turn, reporting the median and 99th
// percentile latency.
func benchQueries(b *testing.B, ix *Index, queries []string) {
	ctx := context.Background()
	// Warm up once so the percentiles describe a running bot, not its first query.
	for _, q := range queries {
		if _, err := ix.Search(ctx, Request{Text: q}); err != nil {
			b.Fatalf("%q: %v", q, err)
		}
	}
	lat := make([]time.Duration, 0, b.N)
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		q := queries[i%len(queries)]
		i++
		t := time.Now()
		if _, err := ix.Search(ctx, Request{Text: q}); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t))
	}
	slices.Sort(lat)
	pct := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}

func BenchmarkQuerySeeds(b *testing.B) {
	ix, _ := seedIndex(b)
	benchQuery(b, ix)
}

func BenchmarkQueryCorpus(b *testing.B) {
	ix, err := Open(context.Background(), bigCorpus(b), Options{Dir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	benchQuery(b, ix)
}

// BenchmarkQueryCorpusLab measures the lab queries (testdata/labqueries):
// long chatty questions as people type them in Slack, whose candidates
// outnumber the record cache, so most papers are analysed afresh.
func BenchmarkQueryCorpusLab(b *testing.B) {
	texts := labQueryTexts(b)
	ix, err := Open(context.Background(), bigCorpus(b), Options{Dir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	benchQueries(b, ix, texts)
}

// labQueryTexts returns the lab queries of both splits
// (testdata/labqueries), train first.
func labQueryTexts(tb testing.TB) []string {
	tb.Helper()
	var texts []string
	for _, split := range []string{"train", "test"} {
		f := filepath.Join("testdata", "labqueries", split+".json")
		raw, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		var qs []struct{ Query string }
		if err := json.Unmarshal(raw, &qs); err != nil {
			tb.Fatalf("%s: %v", f, err)
		}
		for _, q := range qs {
			texts = append(texts, q.Query)
		}
	}
	return texts
}

// BenchmarkFirstAnswerSeeds measures what a fresh process does before its
// first answer over the embedded seeds: load, index in memory, ask.
func BenchmarkFirstAnswerSeeds(b *testing.B) {
	ctx := context.Background()
	for b.Loop() {
		c, err := LoadFS(seeds.FS, "*.txt")
		if err != nil {
			b.Fatal(err)
		}
		ix, err := Open(ctx, c, Options{})
		if err != nil {
			b.Fatal(err)
		}
		res, err := ix.Search(ctx, Request{Text: "which paper makes LLM prefill faster?"})
		if err != nil || len(res.Results) == 0 {
			b.Fatalf("first answer: %v", err)
		}
		if err := ix.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSimilarCorpus measures "papers like this one" over the 5.9k
// real papers, for papers in turn.
func BenchmarkSimilarCorpus(b *testing.B) {
	c := bigCorpus(b)
	ix, err := Open(context.Background(), c, Options{Dir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	lat := make([]time.Duration, 0, b.N)
	i := 0
	for b.Loop() {
		p := c.Papers[(i*7919)%len(c.Papers)]
		i++
		t := time.Now()
		if _, err := ix.Similar(context.Background(), p.ID, 10); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t))
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[min(len(lat)-1, len(lat)*99/100)].Microseconds())/1000, "p99-ms")
}
