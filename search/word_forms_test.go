package search

import (
	"slices"
	"strings"
	"testing"
)

func TestSameWordForms(t *testing.T) {
	for _, tc := range []struct {
		typed, word, stem string
		want              bool
	}{
		{"generative", "general", "gener", false},
		{"optimal", "optimization", "optim", false},
		{"university", "universal", "univers", false},
		{"communication", "community", "commun", false},
		{"transformer", "transformation", "transform", false},
		{"interpretable", "interpretation", "interpret", false},
		{"generative", "generation", "gener", true},
		{"generative", "Generated", "gener", true},
		{"models", "modelling", "model", true},
		{"learned", "Learning", "learn", true},
		{"study", "studies", "studi", true},
		{"predict", "prediction", "predict", true},
		{"diffusion", "diffuse", "diffus", true},
		{"contraction", "contractive", "contract", true},
		{"scalable", "scalability", "scalabl", true},
		{"matrix", "matrices", "matric", true},
		{"normalise", "normalized", "normaliz", true}, // a family of ownStems
	} {
		if got := sameWordForms(tc.typed, tc.word, tc.stem); got != tc.want {
			t.Errorf("sameWordForms(%q, %q) = %v, want %v", tc.typed, tc.word, got, tc.want)
		}
	}
}

// A paper matches a typed word only through a form of it: Porter stems
// "generative" and "general" alike, and "generative models" listed a
// paper on "a general model" as matching "generative".
func TestStemSharedByAnotherWordIsNoMatch(t *testing.T) {
	ix := papersIndex(t, []Paper{
		{ID: "general", Title: "A general model of dominance in plant self-incompatibility", Abstract: "We propose a general model of dominance patterns between alleles."},
		{ID: "generative", Title: "Generative models for molecules", Abstract: "Deep generative models generate candidate molecules with desired properties."},
	})
	res, err := ix.Search(t.Context(), Request{Text: "generative models"})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Results {
		matchedGenerative := slices.ContainsFunc(r.Matched, func(m string) bool { return strings.HasPrefix(m, "generative") })
		if matchedGenerative != (r.ID == "generative") {
			t.Errorf("%s matched %q", r.ID, r.Matched)
		}
	}
	if len(res.Results) == 0 || res.Results[0].ID != "generative" {
		t.Errorf("first paper is not the one on generative models: %v", res.Results)
	}
}
