package eval

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/paperbot/paperbot/search"
)

// scifact is the public benchmark beside the repository clone (../shared).
var scifact = filepath.Join("..", "..", "..", "shared", "benchmarks", "scifact")

// Floors on SciFact's held-out test split. Nothing is tuned on test; these
// catch regressions at the level measured when the refusal was fitted on
// train (eval --fit-refusal: 3 of 300 refused, the product's bar; 0.79
// off-domain refused, before the domain fit 4 and 0.693); the off-domain
// bar (0.90, issue 8) is not reached yet. Ranking must beat the plain BM25
// baseline of the same run.
const (
	maxFalseRefusals = 3
	minOffDomain     = 0.75
)

// heldOut runs b beside plain BM25, logs both, and fails t when paperbot
// ranks below it.
func heldOut(t *testing.T, b *Benchmark) *Report {
	t.Helper()
	r, err := Run(context.Background(), b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s %s: nDCG@10 paperbot %.3f, baseline %.3f; refused %d of %d", b.Name, b.Split, r.Paperbot.NDCG10, r.Baseline.NDCG10, r.Refused, r.Queries)
	if r.Paperbot.NDCG10 < r.Baseline.NDCG10 {
		t.Errorf("%s: nDCG@10 %.3f is below plain BM25's %.3f", b.Name, r.Paperbot.NDCG10, r.Baseline.NDCG10)
	}
	return r
}

// sciFactTest loads SciFact's test split, skipping t under the race
// detector (its index takes minutes there; .ci/run runs these without) or
// when the benchmark is not beside the repository.
func sciFactTest(t *testing.T) *Benchmark {
	t.Helper()
	if raceEnabled {
		t.Skip("minutes under the race detector; .ci/run runs it without")
	}
	if _, err := os.Stat(filepath.Join(scifact, "corpus.jsonl")); err != nil {
		t.Skip("SciFact is not beside the repository:", err)
	}
	b, err := LoadBEIR(scifact, "test")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSciFactHeldOut(t *testing.T) {
	ctx := context.Background()
	b := sciFactTest(t)
	r := heldOut(t, b)
	t.Logf("answers %.3f", r.AnswerAcc)
	if r.Refused > maxFalseRefusals {
		t.Errorf("%d answerable queries refused, want at most %d", r.Refused, maxFalseRefusals)
	}
	files := mlCorpusFiles()
	if len(files) == 0 {
		return
	}
	c, err := search.LoadFiles(files)
	if err != nil {
		t.Fatal(err)
	}
	off, err := RunRefusal(ctx, "scifact test on ML papers", c, b.QueryTexts(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("off-domain: %d of %d refused", off.Refused, off.Queries)
	if off.Share < minOffDomain {
		t.Errorf("off-domain refusal %.3f, want at least %.2f", off.Share, minOffDomain)
	}
}

func TestMetrics(t *testing.T) {
	rel := map[string]int{"a": 1, "b": 1}
	tests := []struct {
		name   string
		ranked []string
		ndcg   float64
		mrr    float64
	}{
		{"both on top", []string{"a", "b", "x"}, 1, 1},
		{"none", []string{"x", "y"}, 0, 0},
		{"one at rank 2", []string{"x", "a"}, (1 / math.Log2(3)) / (1 + 1/math.Log2(3)), 0.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ndcgAt(10, tt.ranked, rel); math.Abs(got-tt.ndcg) > 1e-9 {
				t.Errorf("nDCG %v, want %v", got, tt.ndcg)
			}
			if got := mrrAt(10, tt.ranked, rel); got != tt.mrr {
				t.Errorf("MRR %v, want %v", got, tt.mrr)
			}
		})
	}
	if f := tokenF1("Screening is not justified.", "CONCLUSIONS Screening is not justified"); f < 0.8 {
		t.Errorf("token F1 %v for near-identical sentences", f)
	}
	if f := tokenF1("a b", "c d"); f != 0 {
		t.Errorf("token F1 %v for disjoint sentences", f)
	}
}

// Machine-learning topics asked of SciFact's biomedical abstracts are
// refused when the best abstract lacks one of their words, though it has
// the other ("optimization" of citizen participation in disaster recovery).
// The keywords are ICLR 2024 authors' own, from the train split.
func TestShortQueryMissingAWordIsRefused(t *testing.T) {
	ctx := context.Background()
	b := sciFactTest(t)
	ix, err := search.Open(ctx, b.Corpus, search.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	for _, q := range []string{"federated optimization", "theorem proving", "weakly supervised learning"} {
		res, err := ix.Search(ctx, search.Request{Text: q})
		if err != nil {
			t.Fatal(err)
		}
		if !res.NoMatch {
			t.Errorf("%q over SciFact: answered (confidence %.2f) with %q", q, res.Confidence, res.Results[0].Title)
		}
	}
}
