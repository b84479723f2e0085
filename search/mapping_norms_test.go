package search

import (
	"slices"
	"testing"
)

// A norm is one word however it is written: "L1 regularization" missed the
// papers that wrote \ell_1 (cleaned to "ℓ₁", which the tokenizer cut to
// "ℓ"), and "l_inf" those that wrote ℓ_∞.
func TestNormsAreOneWord(t *testing.T) {
	an := testAnalyzers(t)
	terms := func(text string) []string {
		var out []string
		for _, tk := range an.text.Analyze([]byte(text)) {
			out = append(out, string(tk.Term))
		}
		return out
	}
	for key, forms := range map[string][]string{
		"l1":   {"ℓ₁", "ℓ1", "ℓ_1", "l_1", "L1", "l1", "L¹", "l-1"},
		"l2":   {"ℓ₂", "L_2", "L²", "l2"},
		"linf": {"ℓ_∞", "ℓ∞", "L∞", "l_inf", "linf", "L_infty", "L-infinity", "l-inf"},
		"lp":   {"ℓ_p", "ℓₚ", "Lp"},
	} {
		for _, f := range forms {
			if got := terms(f); !slices.Equal(got, []string{key}) {
				t.Errorf("%q analyses to %q, want [%s]", f, got, key)
			}
		}
	}
	// Around a norm, words keep their places; other words are not norms.
	if got, want := terms("ℓ₁-regularized L-infinity attacks on large L-shaped lattices"), []string{"l1", "regular", "linf", "attack", "larg", "l", "shape", "lattic"}; !slices.Equal(got, want) {
		t.Errorf("analysed %q, want %q", got, want)
	}
	ts := an.text.Analyze([]byte("an L-infinity attack"))
	if len(ts) != 2 || ts[1].Position != ts[0].Position+1 {
		t.Errorf("positions after a joined norm: %v", ts)
	}
}

// Over the real papers, each way of writing a norm finds the papers that
// wrote it another way.
func TestNormsFindEachOther(t *testing.T) {
	ix := bigIndex(t)
	for _, q := range []string{"linf norm constrained optimization", "L-infinity norm constrained optimization"} {
		if r := topResults(t, ix, q, 1); len(r) == 1 && r[0].Title != "Implicit Bias of AdamW: ℓ_∞-Norm Constrained Optimization" {
			t.Errorf("%q: first %q, want the ℓ_∞-norm AdamW paper", q, r[0].Title)
		}
	}
	answeredAs(t, ix, "ℓ₁ regularization", "L1 regularization")
}
