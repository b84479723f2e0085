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

// A word in most papers ("model") is left out of retrieval, but when no
// paper has the rest of the query it is what the closest papers share:
// they are listed under "nothing really relevant", not "no papers match".
func TestUbiquitousWordFindsTheClosestPapers(t *testing.T) {
	var papers []Paper
	for i := range 10 {
		papers = append(papers, Paper{ID: fmt.Sprintf("model%d", i), Title: fmt.Sprintf("A model of graphs %d", i), Abstract: "We train a model on graphs."})
	}
	// The long forms' words are known, each in some paper, but none has
	// RLHF or LoRA: the query is "known" yet retrieves nothing.
	papers = append(papers,
		Paper{ID: "rl", Title: "Reinforcement learning for control", Abstract: "Agents learn to steer a low cart."},
		Paper{ID: "feedback", Title: "Human feedback on images", Abstract: "People rank images for adaptation."})
	ix := papersIndex(t, papers)
	for _, q := range []string{"model RLHF", "LoRA model"} {
		res, err := ix.Search(context.Background(), Request{Text: q})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Results) == 0 || !res.NoMatch {
			t.Errorf("%q: %d results, no match %v; want the papers that share \"model\" as the closest", q, len(res.Results), res.NoMatch)
		}
	}
}

// A refused query lists the three closest papers when three share a word
// with it: "privacy attacks on federated learning" over the seeds listed
// the one paper on federated learning alone, though many say "learning".
func TestRefusedQueryListsThreeClosest(t *testing.T) {
	ix, _ := seedIndex(t)
	for _, q := range []string{"privacy attacks on federated learning", "earthquake detection from seismic waveforms"} {
		res, err := ix.Search(context.Background(), Request{Text: q})
		if err != nil {
			t.Fatal(err)
		}
		if !res.NoMatch || len(res.Results) < closestShown {
			t.Errorf("%q: no match %v with %d results, want refused with at least %d closest", q, res.NoMatch, len(res.Results), closestShown)
		}
		for _, r := range res.Results {
			if len(r.Matched) == 0 {
				t.Errorf("%q: %q listed without the words it shares", q, r.Title)
			}
		}
	}
	res, err := ix.Search(context.Background(), Request{Text: "privacy attacks on federated learning", Limit: 1})
	if err != nil || len(res.Results) != 1 {
		t.Errorf("limit 1: %v, %d results", err, len(res.Results))
	}
}
