package search

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateRoles = flag.Bool("update-roles", false, "rewrite testdata/roles.golden from the current parse")

// The roles of the words of every query of the lab and seed query sets
// (train and held out), the relevance set and the benchmark queries, as
// the parser gives them: text in, roles out, no index. A change to the
// lexicon or the parser shows here query by query; go test -run
// TestQueryRolesGolden -update-roles rewrites the file after a change
// meant.
func TestQueryRolesGolden(t *testing.T) {
	var b strings.Builder
	for _, text := range goldenQueries(t) {
		b.WriteString(text + "\n\t")
		if q, err := ParseQuery(text); err != nil {
			b.WriteString("error: " + err.Error())
		} else {
			b.WriteString(q.String())
		}
		b.WriteString("\n")
	}
	path := filepath.Join("testdata", "roles.golden")
	if *updateRoles {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(b.String(), "\n")
	for i, line := range strings.Split(string(want), "\n") {
		if i >= len(got) || got[i] != line {
			t.Errorf("%s:%d: got\n\t%q\nwant\n\t%q", path, i+1, at(got, i), line)
			if i%2 == 1 {
				t.Logf("query: %s", at(got, i-1))
			}
		}
	}
	if n := strings.Count(string(want), "\n"); len(got)-1 != n {
		t.Errorf("%d lines, %s has %d", len(got)-1, path, n)
	}
}

func at(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return ""
}

// goldenQueries are the query sets' texts in file order.
func goldenQueries(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, path := range []string{
		"testdata/labqueries/train.json", "testdata/labqueries/test.json",
		"testdata/seedqueries/train.json", "testdata/seedqueries/test.json",
		"testdata/relevance.json",
	} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var qs []struct {
			Query string `json:"query"`
		}
		if err := json.Unmarshal(data, &qs); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, q := range qs {
			out = append(out, q.Query)
		}
	}
	return append(out, BenchmarkQueries...)
}

// Words carry the roles a reader of the request would give them.
func TestQueryWords(t *testing.T) {
	for _, tt := range []struct{ name, text, want string }{
		{"count", "give me 3 papers on world models", "question · frame(give me) count(3) frame(papers on) topic(world models)"},
		{"greeting and what's new", "hey paperbot, what's new in diffusion LMs?", "question newest · frame(what's new) topic(in diffusion LMs?)"},
		{"channel", "kv cache compression #ml-reading", "topic(kv cache compression) channel(#ml-reading)"},
		{"action", "how do I grab embeddings from a transformer?", "question · frame(how) topic(do I) action(grab) topic(embeddings from a transformer?)"},
		{"filters", "title:scaling year:2023 -vision laws", "topic(laws) exclude(vision) filter(title:scaling year:2023)"},
		{"span", "kv cache papers since 2023", "topic(kv cache) frame(papers) span(since) topic(2023)"},
		{"chat opener", "fyi need refs on kv cache", "question · frame(need refs on) topic(kv cache)"},
		{"spoken exclusion", "diffusion models excluding image generation", "topic(diffusion models) exclude(\"image generation\")"},
		{"list", "1. kv cache compression 2. speculative decoding", "marker(1.) topic(kv cache compression) marker(2.) topic(speculative decoding)"},
		{"compound", "what is beam search?", "question · frame(what) topic(is beam search?)"},
		{"quantity", "how much faster is flash attention?", "question quantity · frame(how much) topic(faster is flash attention?)"},
		{"definition", "what does DPO stand for?", "question defines · frame(what) topic(does DPO)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			q, err := ParseQuery(tt.text)
			if err != nil {
				t.Fatal(err)
			}
			if got := q.String(); got != tt.want {
				t.Errorf("%q:\n got %s\nwant %s", tt.text, got, tt.want)
			}
		})
	}
}
