package eval

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteLabQueriesBEIR(t *testing.T) {
	dir := t.TempDir()
	papers := filepath.Join(dir, "papers.json")
	if err := os.WriteFile(papers, []byte(`[
 {"title": "Diffusion for graphs", "author": "A. Author; B. Author", "abstract": "We study diffusion models for graph generation in one step.", "year": 2024},
 {"title": " ", "abstract": ""},
 {"title": "Faster sampling", "author": "C. Author", "abstract": "Sampling diffusion models in fewer steps, with a distilled student."}
]`), 0o644); err != nil {
		t.Fatal(err)
	}
	queries := filepath.Join(dir, "queries")
	if err := os.Mkdir(queries, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(queries, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("train.json", `[{"query": "graph diffusion", "kind": "topic", "relevant": [{"file": "papers.json", "record": 1, "grade": 2}]},
 {"query": "earthquake early warning", "kind": "absent", "relevant": []}]`)
	write("test.json", `[{"query": "fewer sampling steps", "kind": "paraphrase", "relevant": [{"file": "papers.json", "record": 3, "grade": 2}, {"file": "papers.json", "record": 1, "grade": 1}]}]`)
	out := filepath.Join(dir, "out")
	if err := WriteLabQueriesBEIR([]string{papers}, queries, out); err != nil {
		t.Fatal(err)
	}
	b, err := LoadBEIR(out, "test")
	if err != nil {
		t.Fatal(err)
	}
	titleOf := map[string]string{}
	for _, d := range b.Docs {
		titleOf[d.ID] = d.Title
	}
	if len(b.Queries) != 1 || b.Queries[0].Text != "fewer sampling steps" {
		t.Fatalf("test queries %+v, want the one answerable query", b.Queries)
	}
	got := map[string]int{}
	for id, g := range b.Queries[0].Relevant {
		got[titleOf[id]] = g
	}
	if got["Faster sampling"] != 2 || got["Diffusion for graphs"] != 1 || len(got) != 2 {
		t.Errorf("judgments by title %v, want Faster sampling 2 and Diffusion for graphs 1 (records 3 and 1 of the file)", got)
	}
	absent, err := os.ReadFile(filepath.Join(out, "absent", "train.txt"))
	if err != nil || strings.TrimSpace(string(absent)) != "earthquake early warning" {
		t.Errorf("absent/train.txt = %q (%v), want the query with no relevant paper", absent, err)
	}

	// A record that is no paper (neither title nor abstract, so skipped) is an error, not
	// a query with nothing relevant.
	write("test.json", `[{"query": "x", "kind": "topic", "relevant": [{"file": "papers.json", "record": 2, "grade": 2}]}]`)
	if err := WriteLabQueriesBEIR([]string{papers}, queries, out); err == nil || !strings.Contains(err.Error(), "record 2") {
		t.Errorf("a skipped record: error %v, want one naming record 2", err)
	}
}

// Bounds of the lab queries' held-out split: the share of answerable
// queries refused, and the least share of absent topics refused (9 of 12
// today; the bar is a floor against refusal breaking, not a target).
const (
	maxLabRefusals = 0.03
	minLabAbsent   = 0.5
)

// TestLabQueriesHeldOut: on questions as a lab types them in Slack, written
// and judged over the ML corpora by people who had not read the ranking
// code, paperbot ranks at least as well as plain BM25 and rarely refuses.
func TestLabQueriesHeldOut(t *testing.T) {
	if raceEnabled {
		t.Skip("a minute under the race detector; .ci/run runs it without")
	}
	files := mlCorpusFiles()
	if len(files) == 0 {
		t.Skip("the ML corpora are not beside the repository")
	}
	judgedHeldOut(t, files, "labqueries", maxLabRefusals, minLabAbsent)
}

// Bounds of the seed queries' held-out split. Over 57 abstracts most words
// of a long question are in none of them, and 4 of 33 answerable queries
// are refused today (the right paper still listed first for 3): a known
// weakness, bounded here so that it cannot grow unseen.
const (
	maxSeedRefusals = 0.2
	minSeedAbsent   = 0.5
)

// TestSeedQueriesHeldOut: the same over the 57 seed abstracts, the corpus
// a new install answers from.
func TestSeedQueriesHeldOut(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "seeds", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("seed files: %v %v", files, err)
	}
	judgedHeldOut(t, files, "seedqueries", maxSeedRefusals, minSeedAbsent)
}

// judgedHeldOut runs the held-out split of the judged queries in
// testdata/dir over the corpus files: at least plain BM25's nDCG@10, at
// most maxRefused of the answerable queries refused, at least minAbsent of
// the absent topics refused.
func judgedHeldOut(t *testing.T, files []string, dir string, maxRefused, minAbsent float64) {
	t.Helper()
	out := filepath.Join(t.TempDir(), dir)
	if err := WriteLabQueriesBEIR(files, filepath.Join("..", "testdata", dir), out); err != nil {
		t.Fatal(err)
	}
	b, err := LoadBEIR(out, "test")
	if err != nil {
		t.Fatal(err)
	}
	r := heldOut(t, b)
	if share := float64(r.Refused) / float64(r.Queries); share > maxRefused {
		t.Errorf("%d of %d answerable queries refused (%.3f), want at most %.2f", r.Refused, r.Queries, share, maxRefused)
	}
	absent, err := os.ReadFile(filepath.Join(out, "absent", "test.txt"))
	if err != nil {
		t.Fatal(err)
	}
	off, err := RunRefusal(context.Background(), dir+" on absent topics", b.Corpus, strings.Split(strings.TrimSpace(string(absent)), "\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("absent topics: %d of %d refused", off.Refused, off.Queries)
	if off.Share < minAbsent {
		t.Errorf("absent topics: %d of %d refused (%.3f), want at least %.2f", off.Refused, off.Queries, off.Share, minAbsent)
	}
}
