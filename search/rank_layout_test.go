package search

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// A query gets the same papers however the index is laid out in segments:
// bleve's BM25 derives its average length per segment, so the ML papers
// built in one batch and in many (as on disk before and after merging)
// ranked differently, "LLMs" among others.
func TestRankingIgnoresSegmentLayout(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes 5,900 papers twice")
	}
	c := bigCorpus(t)
	one, err := Open(context.Background(), c, Options{BatchSize: len(c.Papers)})
	if err != nil {
		t.Fatal(err)
	}
	defer one.Close()
	many := bigIndex(t) // defaultBatchSize: six segments
	queries := append([]string{"LLMs", "Local SGD", "Diversity in RL", "Grounding LLM", "Network evaluation"}, labQueryTexts(t)...)
	for _, q := range queries {
		a, b := layoutSignature(t, one, q), layoutSignature(t, many, q)
		if a != b {
			t.Errorf("%q:\n one segment  %s\n six segments %s", q, a, b)
		}
	}
}

// layoutSignature is what a user sees of a query's first page: the papers
// in order and whether paperbot says nothing is relevant.
func layoutSignature(t *testing.T, ix *Index, q string) string {
	t.Helper()
	res, err := ix.Search(t.Context(), Request{Text: q, Limit: 10})
	if err != nil {
		t.Fatalf("%q: %v", q, err)
	}
	return fmt.Sprintf("no match %v, %v", res.NoMatch, ids(res.Results))
}

// Every field the index holds has a length for bleve's first stage: a
// field without one fails every search that touches it ("field stat for
// bm25 not present").
func TestFirstStageStatsCoverEveryField(t *testing.T) {
	im, err := newMapping()
	if err != nil {
		t.Fatal(err)
	}
	fs := liveState(t, papersIndex(t, []Paper{{ID: "p", Title: "A paper", Abstract: "An abstract."}})).stats.firstStage
	if fs == nil {
		t.Fatal("no first-stage stats for a new index")
	}
	for name, m := range im.DefaultMapping.Properties {
		for _, f := range m.Fields {
			if !f.Index {
				continue
			}
			if _, ok := fs.FieldCardinality[name]; !ok {
				t.Errorf("field %q has no first-stage length", name)
			}
		}
	}
	// A field no sampled paper filled still has a length for papers added
	// later: bleve divides by it.
	if noAuthors := firstStageStats(sampleSums{Words: 300, Title: 20, Sampled: 2, Measured: 2}, 10, nil); noAuthors.FieldCardinality[fieldAuthors] < 10 {
		t.Errorf("authors' total %d for 10 papers, want at least a token each", noAuthors.FieldCardinality[fieldAuthors])
	}
	// An index built before titles were measured leaves it to bleve.
	if old := firstStageStats(sampleSums{Words: 300, Sampled: 2}, 10, nil); old != nil {
		t.Errorf("stats %v for a sample without title lengths", old)
	}
}

// A query shape that names a field the stats lack is ranked as bleve
// would on its own, not failed.
func TestFirstStageStatsMissingFieldStillAnswers(t *testing.T) {
	ix := openT(t, subset(t, 5), Options{})
	older, newer := tardigrade("tard0001"), tardigrade("tard0002")
	newer.Title += " again"
	older.FirstSeen = time.Now().Add(-20 * 24 * time.Hour)
	newer.FirstSeen = time.Now().Add(-24 * time.Hour)
	apply(t, ix, Batch{Upsert: []Paper{older, newer}})
	delete(liveState(t, ix).stats.firstStage.FieldCardinality, "*")
	if res := search2(t, ix, "tardigrade since:4w"); len(res.Results) != 2 {
		t.Errorf("got %d results, want both tardigrade papers", len(res.Results))
	}
}
