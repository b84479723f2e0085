package search

import (
	"context"
	"fmt"
	"testing"
)

// A paper that spells an acronym out is found as one that writes the
// acronym, not as one that matches as many query words as the long form
// has: bleve ignores a conjunction's own boost, so the long form's share
// must sit on its words.
func TestLongFormWeighsAsItsAcronym(t *testing.T) {
	papers := []Paper{
		{ID: "spelled", Title: "Large language models at work", Abstract: "We study large language models in practice."},
		{ID: "acronym", Title: "Choosing demonstrations", Abstract: "An LLM is given examples chosen by a trained encoder."},
	}
	for i := range 12 {
		papers = append(papers, Paper{ID: fmt.Sprintf("other%d", i), Title: fmt.Sprintf("Graph study %d", i), Abstract: "Graphs and kernels in many settings."})
	}
	st, release, err := papersIndex(t, papers).live()
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	q, err := parseQuery("LLM")
	if err != nil {
		t.Fatal(err)
	}
	groups := st.textGroups(q)
	bquery, err := st.bleveQuery(q, groups)
	if err != nil {
		t.Fatal(err)
	}
	cands, _, err := st.run(context.Background(), bquery, 10)
	if err != nil {
		t.Fatal(err)
	}
	score := map[string]float64{}
	for _, c := range cands {
		score[c.doc.ID] = c.score
	}
	t.Logf("spelled %.3f acronym %.3f", score["spelled"], score["acronym"])
	if score["acronym"] == 0 || score["spelled"] == 0 || score["spelled"] > 2*score["acronym"] {
		t.Errorf("retrieval scores: spelled-out %.3f, acronym %.3f; the long form should weigh about as the acronym", score["spelled"], score["acronym"])
	}
}
