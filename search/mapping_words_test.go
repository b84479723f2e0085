package search

import (
	"slices"
	"strings"
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

// textStem returns the stem the text analyzer gives one word.
func textStem(t *testing.T) func(string) string {
	an := seedState(t).an.text
	return func(w string) string {
		t.Helper()
		toks := an.Analyze([]byte(w))
		if len(toks) != 1 {
			t.Fatalf("%q analysed into %d tokens", w, len(toks))
		}
		return string(toks[0].Term)
	}
}

// analysedAlike checks that the text analyzer makes the same terms of each
// key as of its value: two spellings of one thing.
func analysedAlike(t *testing.T, spellings map[string]string) {
	t.Helper()
	an := testAnalyzers(t).text
	terms := func(s string) []string {
		var out []string
		for _, tk := range an.Analyze([]byte(s)) {
			out = append(out, string(tk.Term))
		}
		return out
	}
	for a, b := range spellings {
		if got, want := terms(a), terms(b); !slices.Equal(got, want) {
			t.Errorf("%q analyses to %q, %q to %q", a, got, b, want)
		}
	}
}

// Words the Porter stemmer merges though papers mean different things by
// them stem apart; each family's own forms stay together.
func TestOwnStemsKeepMeaningsApart(t *testing.T) {
	stem := textStem(t)
	for _, p := range [][2]string{{"object", "objective"}, {"multiple", "multiplication"}, {"effect", "effective"},
		{"conformal", "conformation"}, {"continual", "continuous"}, {"active", "activation"}, {"positive", "positional"},
		{"expression", "expressive"}, {"experiment", "experience"}, {"normal", "normalization"}, {"power", "powerful"},
		{"help", "helpfulness"}, {"truth", "truthfulness"}, {"new", "news"},
		{"connected", "connectivity"}, {"rate", "ratings"}, {"valid", "validation"}, {"transport", "transportation"},
		{"base", "based"}, {"proposal", "proposed"}, {"presentation", "present"}, {"extension", "extensive"},
		{"residue", "residual"}, {"organization", "organ"}, {"optimizer", "optimal"}, {"useful", "using"},
		{"demonstrations", "demonstrate"}, {"specification", "specifically"}, {"identifiability", "identify"},
		{"adapters", "adaptive"}, {"additive", "additional"}, {"comprehension", "comprehensive"}, {"reasonable", "reasoning"},
		{"competition", "competitive"}, {"consistency", "consistently"}, {"existence", "existing"}, {"visualization", "visual"},
		{"relation", "related"}, {"initialization", "initial"}, {"distributed", "distribution"},
		{"multimode", "multimodal"}, {"enhancers", "enhance"}} {
		if a, b := stem(p[0]), stem(p[1]); a == b {
			t.Errorf("%q and %q both stem to %q", p[0], p[1], a)
		}
	}
	for _, p := range [][2]string{{"normalize", "normalization"}, {"effective", "effectiveness"}, {"objective", "objectives"},
		{"conformer", "conformations"}, {"localized", "localization"}, {"enhancer", "enhancers"}} {
		if a, b := stem(p[0]), stem(p[1]); a != b {
			t.Errorf("%q stems to %q, %q to %q: one family", p[0], a, p[1], b)
		}
	}
}

// A Latin or Greek plural is its singular's word: "Nash equilibria" finds
// the papers on a Nash equilibrium, and "indices" is not "indicate".
func TestLatinPlurals(t *testing.T) {
	stem := textStem(t)
	for _, p := range [][2]string{{"matrix", "matrices"}, {"vertex", "vertices"}, {"index", "indices"},
		{"equilibrium", "equilibria"}, {"minimum", "minima"}, {"optimum", "optima"}, {"spectrum", "spectra"},
		{"criterion", "criteria"}, {"phenomenon", "phenomena"}, {"hypothesis", "hypotheses"},
		{"analysis", "analyses"}, {"nucleus", "nuclei"}, {"stimulus", "stimuli"}, {"curriculum", "curricula"}} {
		if a, b := stem(p[0]), stem(p[1]); a != b {
			t.Errorf("%q stems to %q, %q to %q: one word", p[0], a, p[1], b)
		}
	}
	if a, b := stem("indices"), stem("indicate"); a == b {
		t.Errorf("indices and indicate both stem to %q", a)
	}
	ix := bigIndex(t)
	res, err := ix.Search(t.Context(), Request{Text: "Nash equilibria", Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	singular := 0
	for _, r := range res.Results {
		if text := strings.ToLower(r.Title + " " + r.Abstract); strings.Contains(text, "nash equilibrium") && !strings.Contains(text, "equilibria") {
			singular++
		}
	}
	if singular == 0 {
		t.Errorf("\"Nash equilibria\" found none of the %d papers that write only \"Nash equilibrium\"", res.Total)
	}
}

// Sub- and superscript digits are the digits users type: the tokenizer
// dropped them, so "IC50" never found "IC₅₀", nor "H2O2" "H₂O₂".
func TestScriptDigitsAreDigits(t *testing.T) {
	ix := papersIndex(t, []Paper{
		{ID: "ic50", Title: "Imatinib potency in leukaemia cells", Abstract: "Imatinib reached an IC₅₀ of 0.3 µM in K562 cells."},
		{ID: "ros", Title: "Oxidative stress in neurons", Abstract: "Neurons exposed to H₂O₂ lost Ca²⁺ homeostasis."},
		{ID: "other", Title: "Imatinib dosing", Abstract: "Imatinib at 400 mg daily was well tolerated."},
	})
	analysedAlike(t, map[string]string{"IC₅₀": "IC50", "H₂O₂": "H2O2", "Ca²⁺": "Ca2+", "CO₂ levels": "CO2 levels", "ℓ₁": "l1"})
	for q, want := range map[string]string{"imatinib IC50": "ic50", "H2O2 neurons": "ros", "Ca2+ homeostasis": "ros"} {
		res := mustFind(t, ix, q)
		if res.Results[0].ID != want {
			t.Errorf("%q: first %s, want %s", q, res.Results[0].ID, want)
		}
	}
}
