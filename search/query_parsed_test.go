package search

import (
	"context"
	"slices"
	"testing"
)

// A query parsed once is what the search runs: Request.Query wins over
// Request.Text, and searching it twice (with and without an answer) leaves
// it as parsed.
func TestSearchParsedQuery(t *testing.T) {
	ix, _ := seedIndex(t)
	ctx := context.Background()
	q, err := ParseQuery("give me 3 papers on watermarking LLM-generated text")
	if err != nil {
		t.Fatal(err)
	}
	if n := q.AskedCount(); n != 3 {
		t.Fatalf("AskedCount = %d, want 3", n)
	}
	for _, answer := range []bool{true, false} {
		want, err := ix.Search(ctx, Request{Text: q.Text(), Limit: q.AskedCount(), Answer: answer})
		if err != nil {
			t.Fatal(err)
		}
		got, err := ix.Search(ctx, Request{Text: "protein folding", Query: q, Limit: q.AskedCount(), Answer: answer})
		if err != nil {
			t.Fatal(err)
		}
		if got.Query != want.Query || !slices.Equal(ids(got.Results), ids(want.Results)) || !slices.Equal(answers(got), answers(want)) {
			t.Errorf("answer %v: searched %q for %v %q, want %q for %v %q", answer,
				got.Query, ids(got.Results), answers(got), want.Query, ids(want.Results), answers(want))
		}
	}
}

func answers(r *Results) []string {
	var out []string
	for _, h := range r.Results {
		out = append(out, h.Answer)
	}
	return out
}
