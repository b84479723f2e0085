package search

import (
	"slices"
	"testing"
)

// A possessive after a number is no word: "GPT-4's coding ability" matched
// "s" in every paper that wrote "4's", and listed one for it.
func TestPossessiveAfterANumber(t *testing.T) {
	an := testAnalyzers(t)
	for text, want := range map[string][]string{
		"GPT-4's coding ability": {"gpt", "4", "code", "abil"},
		"the 1990’s networks":    {"1990", "network"},
		"Adam's update":          {"adam", "updat"},
		"vitamin S and type s":   {"vitamin", "s", "type", "s"},
	} {
		ts := an.text.Analyze([]byte(text))
		var got []string
		for i, tk := range ts {
			got = append(got, string(tk.Term))
			if i > 0 && tk.Position <= ts[i-1].Position {
				t.Errorf("%q: %q at position %d after %d", text, tk.Term, tk.Position, ts[i-1].Position)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q analyses to %q, want %q", text, got, want)
		}
	}
	for i, r := range topResults(t, bigIndex(t), "GPT-4's coding ability", 3) {
		if slices.Contains(r.Matched, "s") {
			t.Errorf("result %d %q matched %q", i+1, r.Title, r.Matched)
		}
	}
}

// Words the Porter stemmer merges though papers mean different things by
// them stem apart; each family's own forms stay together.
func TestOwnStemsKeepMeaningsApart(t *testing.T) {
	an := seedState(t).an.text
	stem := func(w string) string {
		toks := an.Analyze([]byte(w))
		if len(toks) != 1 {
			t.Fatalf("%q analysed into %d tokens", w, len(toks))
		}
		return string(toks[0].Term)
	}
	for _, p := range [][2]string{{"object", "objective"}, {"multiple", "multiplication"}, {"effect", "effective"},
		{"conformal", "conformation"}, {"continual", "continuous"}, {"active", "activation"}, {"positive", "positional"},
		{"expression", "expressive"}, {"experiment", "experience"}, {"normal", "normalization"}, {"power", "powerful"},
		{"help", "helpfulness"}, {"truth", "truthfulness"}, {"new", "news"},
		{"connected", "connectivity"}, {"rate", "ratings"}, {"valid", "validation"}, {"transport", "transportation"}} {
		if a, b := stem(p[0]), stem(p[1]); a == b {
			t.Errorf("%q and %q both stem to %q", p[0], p[1], a)
		}
	}
	for _, p := range [][2]string{{"normalize", "normalization"}, {"effective", "effectiveness"}, {"objective", "objectives"},
		{"conformer", "conformations"}, {"localized", "localization"}} {
		if a, b := stem(p[0]), stem(p[1]); a != b {
			t.Errorf("%q stems to %q, %q to %q: one family", p[0], a, p[1], b)
		}
	}
}
