package search

import (
	"context"
	"testing"
	"time"
)

// FuzzParseQuery: any input parses or fails with an Invalid *Error, quickly;
// a parsed query then searches the seeds without error.
//
//	go test -run '^$' -fuzz FuzzParseQuery -fuzztime 30s ./search/
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{
		"kv cache", `"flow matching" -image`, "title:transformer author:\"Tommi Jaakkola\"",
		"year:2020..2024 has:code", "year:>=2023", "-has:code graphs", "which paper rediscovers the Kramers-Wannier duality?",
		`"unclosed`, "foo:", "year:abc", "- -- ---", "“smart” quotes", "https://github.com/a/b", "::::", "title:\"\"",
		"year:2024..2020", "a\x00b", "\xff\xfe", "-\"\"", "MLIP transfomer équivariance",
	} {
		f.Add(s)
	}
	ix, _ := seedIndex(f)
	f.Fuzz(func(t *testing.T, s string) {
		start := time.Now()
		q, err := parseQuery(s)
		if d := time.Since(start); d > 100*time.Millisecond {
			t.Fatalf("parseQuery(%q) took %v", s, d)
		}
		if err != nil {
			if KindOf(err) != Invalid || Message(err) == "" {
				t.Fatalf("parseQuery(%q): %v is not a friendly Invalid error", s, err)
			}
			return
		}
		if !q.positive() {
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
