package search

import (
	"slices"
	"strings"
	"testing"
)

func grams(text string) []uint64 {
	var out []uint64
	eachGram(text, func(k uint64) { out = append(out, k) })
	return out
}

// 3-grams join words across a hyphen and ignore case, so IL-6, IL6 and il6
// share their grams, and a word too short for a gram gives none.
func TestEachGram(t *testing.T) {
	il6 := grams("il6")
	if len(il6) != 1 {
		t.Fatalf("il6: %d grams, want 1", len(il6))
	}
	for _, in := range []string{"IL-6", "IL6", "(il-6)"} {
		if got := grams(in); !slices.Equal(got, il6) {
			t.Errorf("%q: grams %v, want those of il6 %v", in, got, il6)
		}
	}
	if got := grams("an ox"); len(got) != 0 {
		t.Errorf("short words gave %d grams", len(got))
	}
	if got, want := len(grams("Ångström x")), len(grams("ångström")); got != want || got != 6 {
		t.Errorf("non-ASCII: %d grams, want %d (6)", got, want)
	}
	if got := grams("state - of"); len(got) != 3 { // "state" alone, not "stateof"
		t.Errorf("a free-standing dash joined words: %d grams", len(got))
	}
}

func TestSentenceCue(t *testing.T) {
	for s, want := range map[string]float64{
		"OBJECTIVE To assess whether screening reduces mortality.":             -1,
		"CONCLUSIONS Screening is not justified.":                              1,
		"We show that FliPS generates backbones with the desired flexibility.": 1,
		"Whether this holds in humans remains unclear.":                        -1,
		"Does sparse attention help?":                                          -1,
		"Mortality was significantly lower in the treated group (P < .01).":    1,
		"Transformers are a kind of neural network.":                           0,
		"Resultant forces act on the membrane.":                                0,
	} {
		if got := sentenceCue(s); got != want {
			t.Errorf("sentenceCue(%q) = %v, want %v", s, got, want)
		}
	}
}

// A paper that has the query's words next to each other ("model merging")
// ranks above one that has the same words apart. The two abstracts have the
// same words, so without the pair score they tie, and a tie goes to the
// smaller ID ("apart").
func TestWordsTogetherRankFirst(t *testing.T) {
	papers := []Paper{
		{ID: "apart", Title: "Study alpha", Abstract: "Merging works well. We train one model."},
		{ID: "together", Title: "Study gamma", Abstract: "Model merging works well. We train one."},
	}
	ix := papersIndex(t, papers)
	res := mustFind(t, ix, "model merging")
	if len(res.Results) != 2 {
		t.Fatalf("%d results, want 2", len(res.Results))
	}
	if got := res.Results[0].ID; got != "together" {
		t.Errorf("first %q, want the paper that says model merging", got)
	}
}

// Two words written together weigh as the phrase is rare, not as its
// commoner word is: "model collapse" over the 5.9k real papers put first
// papers on neural, embedding and posterior collapse (they have "model"
// somewhere), and the papers about model collapse 7th and 8th.
func TestRarePairOutweighsItsWords(t *testing.T) {
	for i, r := range topResults(t, bigIndex(t), "model collapse", 2) {
		if !strings.Contains(strings.ToLower(r.Title), "model collapse") {
			t.Errorf("result %d %q does not say model collapse", i+1, r.Title)
		}
	}
}

// pairDF counts the papers with the second word right after the first, in
// either field, and no others: not across the title's two copies in the
// body, nor over a stop word.
func TestPairDF(t *testing.T) {
	ix := papersIndex(t, []Paper{
		{ID: "p1", Title: "Model collapse in generative training", Abstract: "Training on generated data."},
		{ID: "p2", Title: "Collapse of the model", Abstract: "The model is trained; collapse follows."},
		{ID: "p3", Title: "A study", Abstract: "We see model collapse and a theory of mind."},
		{ID: "p4", Title: "Mind the theory", Abstract: "Unrelated words: model, then later collapse."},
	})
	st, release, err := ix.live()
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	stem := textStem(t)
	for _, tc := range []struct {
		a, b string
		want int
	}{{"model", "collapse", 2}, {"collapse", "model", 0}, {"theory", "mind", 0}, {"generated", "data", 1}, {"model", "absent", 0}} {
		if got := st.vocab.pairDF(stem(tc.a), stem(tc.b), st.vocab.n); got != tc.want {
			t.Errorf("pairDF(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
