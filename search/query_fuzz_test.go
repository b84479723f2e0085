package search

import (
	"context"
	"math"
	"runtime"
	"testing"
)

// FuzzParseQuery: any input parses or fails with an Invalid *Error, in work
// linear in its length; a parsed query then searches the seeds without error.
//
//	go test -run '^$' -fuzz FuzzParseQuery -fuzztime 30s ./search/
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{
		"kv cache", `"flow matching" -image`, "title:transformer author:\"Tommi Jaakkola\"",
		"year:2020..2024 has:code", "year:>=2023", "-has:code graphs", "which paper rediscovers the Kramers-Wannier duality?",
		`"unclosed`, "foo:", "year:abc", "- -- ---", "“smart” quotes", "https://github.com/a/b", "::::", "title:\"\"",
		"year:2024..2020", "a\x00b", "\xff\xfe", "-\"\"", "MLIP transfomer équivariance", "ℓ₁ L-infinity l_inf ℓ_∞ L∞", "flash_attn flash attention", "Q: re: x_y_z",
		"few shot out of distribution", "what did Kaiming He publish", "what does CoMiGS stand for?", "watermark user id", "k-NN", "where is the code for SepLLM?", "pretraining",
	} {
		f.Add(s)
	}
	ix, _ := seedIndex(f)
	// The index warms its English tables in the background; their
	// allocations would be counted against the parser's below.
	warmEnglish()
	f.Fuzz(func(t *testing.T, s string) {
		// Work, not wall-clock time: a timer fails under load, while the
		// parser's allocations grow with the work it does whatever the
		// machine's speed (the seeds use at most ~35 bytes per input byte).
		if mallocs, bytes := parseAllocs(s); mallocs > parseMallocBudget(s) || bytes > parseByteBudget(s) {
			t.Fatalf("parseQuery(%q) made %d allocations of %d bytes in all: more than linear in its %d bytes", s, mallocs, bytes, len(s))
		}
		q, err := parseQuery(s)
		if err != nil {
			if KindOf(err) != Invalid || Message(err) == "" {
				t.Fatalf("parseQuery(%q): %v is not a friendly Invalid error", s, err)
			}
			return
		}
		if !q.Positive() {
			t.Fatalf("parseQuery(%q) accepted a query with nothing to search for", s)
		}
		res, err := ix.Search(context.Background(), Request{Text: s})
		if err != nil && KindOf(err) != Invalid {
			t.Fatalf("Search(%q): %v", s, err)
		}
		if err == nil && res == nil {
			t.Fatalf("Search(%q): nil results", s)
		}
	})
}

// parseAllocs returns the allocations one parseQuery(s) makes: the fewest of
// three runs, since the fuzzing engine's goroutines allocate beside it and
// can only add to the count.
func parseAllocs(s string) (mallocs, bytes uint64) {
	mallocs, bytes = math.MaxUint64, math.MaxUint64
	for range 3 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, _ = parseQuery(s)
		runtime.ReadMemStats(&after)
		mallocs = min(mallocs, after.Mallocs-before.Mallocs)
		bytes = min(bytes, after.TotalAlloc-before.TotalAlloc)
	}
	return mallocs, bytes
}

// parseMallocBudget and parseByteBudget bound the allocations parseQuery may
// make for s: linear in its length, with room for the query's own structure.
func parseMallocBudget(s string) uint64 { return 32 + 2*uint64(len(s)) }
func parseByteBudget(s string) uint64   { return 2048 + 128*uint64(len(s)) }
