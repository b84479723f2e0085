package search

import (
	"slices"
	"strings"
	"testing"
)

// "A or B" asks for papers on either: a paper with one of them has what
// was asked, and its card names the one it has.
func TestEitherWordAnswers(t *testing.T) {
	ix, _ := seedIndex(t)
	firstMatches(t, ix, map[string]firstMatch{
		"weather or climate forecasting":  {"bhfk8w5x", "weather"},
		"tropical cyclones or hurricanes": {"bhfk8w5x", "cyclones"},
		"conformer or docking generation": {"ahz71xrc", "generation"},
	})
	for _, q := range []string{"weather or climate forecasting", "tropical cyclones or hurricanes"} {
		res, err := ix.Search(t.Context(), Request{Text: q})
		if err != nil || len(res.Results) == 0 {
			t.Errorf("%q: no papers (%v)", q, err)
			continue
		}
		// The paper says nothing of climate or hurricanes: neither is
		// named as matched, nor as missing from every paper.
		if top := res.Results[0]; slices.ContainsFunc(top.Matched, func(w string) bool { return w == "climate" || w == "hurricanes" }) {
			t.Errorf("%q: matched %q, which the paper does not say", q, top.Matched)
		}
		if len(res.Missing) > 0 {
			t.Errorf("%q: says no paper has %q, though they are alternatives to what it has", q, res.Missing)
		}
	}
	// Two papers to compare: both, the first two, not "nothing relevant".
	for _, q := range []string{"compare SepLLM and LaCache", "SepLLM vs LaCache"} {
		res, err := ix.Search(t.Context(), Request{Text: q, Limit: 2})
		if err != nil || res.NoMatch || len(res.Results) < 2 {
			t.Errorf("%q: refused or failed (%v)", q, err)
			continue
		}
		if got := []string{res.Results[0].ID, res.Results[1].ID}; !slices.Contains(got, "m8qq4vdh") || !slices.Contains(got, "jeq7bgwz") {
			t.Errorf("%q: first two %q, want SepLLM and LaCache", q, got)
		}
	}
	// Neither alternative in the seeds: still nothing relevant. The
	// forecasting papers have a word of "forecasting tsunamis", not it.
	for _, q := range []string{"hallucination or factuality in VLMs", "forecasting tsunamis or volcanic eruptions"} {
		if res, err := ix.Search(t.Context(), Request{Text: q}); err != nil || !res.NoMatch {
			t.Errorf("%q: answered (%v)", q, err)
		}
	}
}

// Only the words on either side of "or" are alternatives, and only when
// both are searched.
func TestEitherWordGroups(t *testing.T) {
	st := seedState(t)
	for text, want := range map[string]string{
		"pruning or quantization of LLMs":               "(pruning|quantization) LLMs",
		"LLM pruning or quantization":                   "(LLM pruning|quantization)",
		"diffusion or flow models or VAEs":              "(diffusion|flow models|VAEs)",
		"weather or climate forecasting":                "(weather|climate forecasting)",
		"ML for weather or climate":                     "ML (weather|climate)",
		"fish stock assessment or fisheries management": "(fish stock assessment|fisheries management)",
		"is LoRA better or worse than fine-tuning?":     "LoRA fine tuning",
		"does dropout help or not in transformers?":     "dropout transformers",
		"graph neural networks or transformers":         "(graph neural networks|transformers)",
		`"flow matching" or diffusion for molecules`:    "(flow matching|diffusion) molecules",
		"SepLLM vs. LaCache":                            "(SepLLM|LaCache)",
		"compare SepLLM and LaCache on long context":    "(SepLLM|LaCache) long context",
		"trade-off between accuracy and fairness":       "trade accuracy fairness",
		"difference in uptake between black and white":  "difference uptake black white",
	} {
		if got := eitherShape(groupsOf(t, st, text)); got != want {
			t.Errorf("%q: groups %q, want %q", text, got, want)
		}
	}
}

// eitherShape writes groups as their surfaces, each set of alternatives
// in brackets, its alternatives joined by |: "(weather|climate forecasting)".
func eitherShape(groups []group) string {
	var out []string
	for i, g := range groups {
		if g.either == 0 {
			out = append(out, g.surface)
			continue
		}
		if i > 0 && groups[i-1].either == g.either {
			continue // written with the set's first group
		}
		var sides []string
		for _, o := range groups[i:] {
			if o.either != g.either {
				break
			}
			if o.side >= len(sides) {
				sides = append(sides, o.surface)
			} else {
				sides[o.side] += " " + o.surface
			}
		}
		out = append(out, "("+strings.Join(sides, "|")+")")
	}
	return strings.Join(out, " ")
}
