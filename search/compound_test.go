package search

import (
	"context"
	"slices"
	"strings"
	"testing"
)

func TestCompounds(t *testing.T) {
	for in, want := range map[string][]string{
		"G-CSF levels rose":                {"gcsf"},
		"IL-6 and IL6":                     {"il6"},
		"GPT-4o beats KV-cache methods":    {"gpt4o", "kvcache"},
		"an SO(3)-equivariant model":       {"so3"},
		"state-of-the-art Kramers-Wannier": {"stateoftheart"},
		"few-shot, out-of-distribution":    {"fewshot", "outofdistribution"},
		"zero-shot, self-supervised":       nil,
		"NR5A2 is one word":                nil,
		"plain words only":                 nil,
		"PD\u20101 and CD19\u2011CAR":      {"pd1", "cd19car"}, // typeset hyphens
		"cell\u2013cell, 1\u20133":         nil,                // en dashes join no name
	} {
		if got := joinedForms(compounds(in)); !slices.Equal(got, want) {
			t.Errorf("compounds(%q) = %q, want %q", in, got, want)
		}
	}
}

// An identifier typed joined finds the paper that hyphenates or brackets it.
func TestIdentifierFoundWhole(t *testing.T) {
	ix, _ := seedIndex(t)
	res, err := ix.Search(context.Background(), Request{Text: "SO3 flow matching"})
	if err != nil || len(res.Results) == 0 {
		t.Fatalf("%v %+v", err, res)
	}
	if got := res.Results[0].Title; !strings.Contains(got, "SO(3)") {
		t.Errorf("first result %q, want the SO(3)-averaged flow matching paper", got)
	}
}

// An identifier whose first part is a stop word ("so") is still searched
// whole: "SO(3)" finds the paper that names it, not every paper with a 3.
func TestIdentifierAfterStopWord(t *testing.T) {
	ix, _ := seedIndex(t)
	res, err := ix.Search(context.Background(), Request{Text: "SO(3)"})
	if err != nil || len(res.Results) == 0 {
		t.Fatalf("%v %+v", err, res)
	}
	for _, r := range res.Results {
		if !strings.Contains(r.Title+r.Abstract, "SO(3)") {
			t.Errorf("%q matched %q without naming SO(3)", r.Title, r.Matched)
		}
	}
	if got := res.Results[0].Matched; !slices.Equal(got, []string{"SO(3)"}) {
		t.Errorf("matched %q, want [SO(3)]", got)
	}
}

// Identifier spans stay inside the text and in order, whatever the input.
func FuzzCompounds(f *testing.F) {
	for _, s := range []string{"G-CSF", "SO(3)-x", "a-(b", "IL-6)", "((1-2))", "é-É-1", "x-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		prev := 0
		for _, c := range compounds(s) {
			if c.start < prev || c.end > len(s) || c.start >= c.end || c.joined == "" {
				t.Fatalf("compounds(%q): bad span %+v", s, c)
			}
			prev = c.end
		}
		eachGram(s, func(uint64) {})
	})
}

// A phrase reaches through an identifier's whole token to its parts.
func TestPhraseAcrossIdentifier(t *testing.T) {
	ix, _ := seedIndex(t)
	res, err := ix.Search(context.Background(), Request{Text: `"conformer generation with SO(3)"`})
	if err != nil || len(res.Results) == 0 || res.NoMatch {
		t.Fatalf("%v %+v", err, res)
	}
	if !strings.Contains(res.Results[0].Title, "SO(3)-Averaged") {
		t.Errorf("first %q", res.Results[0].Title)
	}
}

// A card lists an identifier the user typed as one word when the paper
// writes it ("IL-6", not "IL" and "6"), and its parts when the paper only
// has them apart.
func TestIdentifierMatchedWhole(t *testing.T) {
	papers := []Paper{
		{ID: "il6", Title: "IL6 drives fever in sepsis", Abstract: "Blocking IL-6 signalling lowered fever in septic mice."},
		{ID: "apart", Title: "Cytokines in sepsis", Abstract: "We measured IL-1 and IL-10 at 6 hours in sepsis patients."},
	}
	ix := papersIndex(t, papers)
	res := mustFind(t, ix, "IL-6 in sepsis")
	want := map[string][]string{"il6": {"IL-6", "sepsis"}, "apart": {"IL", "6", "sepsis"}}
	if len(res.Results) != len(want) {
		t.Fatalf("%d results, want %d", len(res.Results), len(want))
	}
	for _, r := range res.Results {
		if !slices.Equal(r.Matched, want[r.ID]) {
			t.Errorf("%s: matched %q, want %q", r.ID, r.Matched, want[r.ID])
		}
	}
}

// joinedForms lists the joined forms of cs, in order.
func joinedForms(cs []compound) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.joined)
	}
	return out
}
