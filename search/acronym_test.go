package search

import (
	"context"
	"slices"
	"strings"
	"testing"
)

func TestDefinitions(t *testing.T) {
	tests := []struct {
		text string
		want []string // "SHORT=long form"
	}{
		{"Transition path sampling (TPS), which involves finding paths", []string{"TPS=Transition path sampling"}},
		{"we introduce Reaction Graph (RG), a unified graph", []string{"RG=Reaction Graph"}},
		{"the number of Key-Value (KV) pairs in LLMs escalates", []string{"KV=Key-Value"}},
		{"Machine learning interatomic potentials (MLIPs) have become", []string{"MLIP=Machine learning interatomic potentials"}},
		{"effective degrees of freedom (DOF) in molecular dynamics", []string{"DOF=degrees of freedom"}},
		{"minimizing the Onsager-Machlup (OM) action functional", []string{"OM=Onsager-Machlup"}},
		{"We propose Graph Bayesian Flow Networks (GraphBFN) in this paper", []string{"GraphBFN=Graph Bayesian Flow Networks"}},
		{"Improving time-to-first-token (TTFT) is important", []string{"TTFT=time-to-first-token"}},
		{"trade-off between Precision (Recall) and", nil},                              // one capital: a word, not an acronym
		{"as shown (e.g., in images) and in (2024)", nil},                              // not acronyms
		{"the random variable (XYZ) was sampled", nil},                                 // letters do not fit
		{"Deep learning (DL) offers. Another (DL2) one", []string{"DL=Deep learning"}}, // DL2 fits no words
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			var got []string
			for _, p := range definitions(tt.text) {
				got = append(got, p.short+"="+p.long)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("definitions = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestAcronymTable(t *testing.T) {
	an := testAnalyzers(t)
	mined := mineAcronyms([]Paper{
		{Abstract: "We study Transition path sampling (TPS) here."},
		{Abstract: "Our Multi-Perspective Language-Image Pretraining (MLIP) model."},
	})
	tab := newAcronymTable(an.text, mined)

	longs := func(ac string) []string {
		var out []string
		for _, e := range tab.byAcronym[ac] {
			out = append(out, strings.Join(e.words(), " "))
		}
		return out
	}
	if got := longs("tp"); !slices.Contains(got, "transit path sampl") {
		t.Errorf("TPS expands to %q, want the mined long form", got)
	}
	if got := longs("kv"); !slices.Contains(got, "kei valu") {
		t.Errorf("KV expands to %q, want the hand-kept key-value", got)
	}
	if e, n := tab.longForm([]string{"kei", "valu", "cach"}, 0, nil); n != 2 || e.acronym != "kv" {
		t.Errorf("longForm(key value cache) = %q/%d, want kv/2", e.acronym, n)
	}
	if e, n := tab.longForm([]string{"machin", "learn", "interatom", "potenti"}, 0, nil); n != 4 || e.acronym != "mlip" {
		t.Errorf("longForm(machine learning interatomic potentials) = %q/%d, want the longest match mlip/4", e.acronym, n)
	}
	if !tab.ambiguous["mlip"] {
		t.Error("MLIP has two meanings but is not marked ambiguous")
	}
	if tab.ambiguous["mlp"] {
		t.Error("MLP (multilayer / multi-layer perceptron) is marked ambiguous")
	}
}

// An acronym is ambiguous when the corpus uses it for two things, not when
// one paper spells it its own way or defines it once for something else:
// a paper found through "RLHF" for "reinforcement learning from human
// feedback" is as good an answer as one spelling it out.
func TestAmbiguousAcronyms(t *testing.T) {
	an := testAnalyzers(t)
	var papers []Paper
	for range 20 {
		papers = append(papers,
			Paper{Abstract: "We study reinforcement learning (RL) and reinforcement learning from human feedback (RLHF)."},
			Paper{Abstract: "Domain adaptation (DA) is hard."})
	}
	papers = append(papers,
		Paper{Abstract: "A reinforced leaf sequencer (RL) for plants."},
		Paper{Abstract: "Aligned with RL from human feedback (RLHF) and with reinforcement learning with human feedback (RLHF)."},
		Paper{Abstract: "Partially observable Markov decision processes (POMDPs) and partially observable MDPs (POMDPs)."},
		Paper{Abstract: "Data augmentation (DA) helps."}, Paper{Abstract: "Data augmentation (DA) again."},
		Paper{Abstract: "Data augmentation (DA) once more."})
	papers = append(papers, Paper{Abstract: "Length of stay (LOS) in hospital."})
	tab := newAcronymTable(an.text, mineAcronyms(papers))
	// The acronym as written, for telling "LOS" (stem "lo") from "LNS".
	if es := tab.byAcronym["lo"]; len(es) == 0 || es[0].short != "LOS" {
		t.Errorf("LOS: long forms %+v, want the acronym as written (LOS)", es)
	}
	for ac, want := range map[string]bool{"rl": false, "rlhf": false, "pomdp": false, "da": true} {
		if tab.ambiguous[ac] != want {
			t.Errorf("%s: ambiguous %v, want %v (long forms %v)", ac, tab.ambiguous[ac], want, tab.byAcronym[ac])
		}
	}
}

// The curated dictionary covers the field's common acronyms, so one the
// corpus never spells out still finds its long form.
func TestCuratedAcronyms(t *testing.T) {
	pairs := curatedAcronyms()
	if len(pairs) < 300 {
		t.Fatalf("%d curated acronyms, want at least 300", len(pairs))
	}
	for _, want := range []string{"RAG", "PRM", "RLHF", "PEFT", "LoRA", "ViT", "NeRF", "SAE", "MLIP", "GNN", "G-CSF"} {
		if !slices.ContainsFunc(pairs, func(p acronymPair) bool { return p.short == want }) {
			t.Errorf("curated dictionary lacks %s", want)
		}
	}
	ix, _ := seedIndex(t)
	res, err := ix.Search(context.Background(), Request{Text: "PRM", Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) == 0 || !strings.Contains(strings.ToLower(res.Results[0].Abstract), "process reward model") {
		t.Errorf("PRM: want the paper on process reward models first, got %+v", res.Results)
	}
	// A short acronym that is an English word stays a word in lower case.
	e := expansion{acronym: "map", short: "MAP", curated: true}
	if expandsAsTyped(e, "map") || !expandsAsTyped(e, "MAP") {
		t.Errorf("curated MAP: lower-case map must not expand, MAP must")
	}
}

// A short acronym the corpus defines that is also an English word expands
// only when typed in capitals: "far field imaging" is not about false
// acceptance rates.
func TestMinedAcronymThatIsAWord(t *testing.T) {
	st := liveState(t, papersIndex(t, []Paper{
		{ID: "bio", Title: "Face verification at scale", Abstract: "We lower the false acceptance rate (FAR) of face verification."},
		{ID: "bio2", Title: "Spoof detection", Abstract: "Spoofs raise the false acceptance rate (FAR) of fingerprint systems."},
		{ID: "gen", Title: "Length generalization", Abstract: "How far can transformers generalize beyond their training lengths?"},
	}))
	if got := altsOfKind(t, st, "far field imaging", altAcronym); len(got) > 0 {
		t.Errorf(`lower-case "far" expands: %q`, got)
	}
	if got := altsOfKind(t, st, "FAR of face verification", altAcronym); !slices.Contains(got, "FAR: fals accept rate") {
		t.Errorf(`"FAR" expands to %q, want the false acceptance rate the corpus defines`, got)
	}
}

// A long form that needs a stop word matches only when the user typed one:
// "loss function" (machine learning) is not "loss of function" (LoF).
func TestLongFormNeedsItsStopWords(t *testing.T) {
	ix, _ := seedIndex(t)
	st := seedState(t)
	surfaces := func(text string) []string { return surfacesOf(t, st, text) }
	if got := surfaces("loss function"); !slices.Equal(got, []string{"loss", "function"}) {
		t.Errorf(`"loss function" groups = %q, want two words, not the long form of LoF`, got)
	}
	if got := surfaces("loss of function"); len(got) != 1 {
		t.Errorf(`"loss of function" groups = %q, want one long-form group`, got)
	}
	res, err := ix.Search(context.Background(), Request{Text: "loss function", Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.NoMatch {
		t.Errorf(`"loss function" is refused over ML seeds (confidence %.2f)`, res.Confidence)
	}
}

// mineAcronyms mines papers as an index build does.
func mineAcronyms(papers []Paper) []acronymPair {
	b := newMetaBuilder(analyzers{}, indexMeta{}, nil)
	for i := range papers {
		b.add(&papers[i], 1, false)
	}
	m := b.finish()
	return m.acronymPairs()
}

// A paper's word is the acronym when written with a capital, with or
// without a lower-case plural s: "ln" is a logarithm and "LNS" another
// acronym, not layer normalization's LN.
func TestSameWord(t *testing.T) {
	for _, tt := range []struct {
		surface, acronym string
		want             bool
	}{
		{"LN", "ln", true}, {"LNs", "ln", true}, {"ln", "ln", false}, {"LNS", "ln", false},
		{"GPT-4", "gpt4", true}, {"CLIP", "clip", true}, {"clipping", "clip", false}, {"SAEs", "sae", true},
	} {
		if got := sameWord(tt.surface, tt.acronym); got != tt.want {
			t.Errorf("sameWord(%q, %q) = %v, want %v", tt.surface, tt.acronym, got, tt.want)
		}
	}
}

// testAnalyzers returns the index mapping's analyzers.
func testAnalyzers(t *testing.T) analyzers {
	t.Helper()
	m, err := newMapping()
	if err != nil {
		t.Fatal(err)
	}
	an, err := newAnalyzers(m)
	if err != nil {
		t.Fatal(err)
	}
	return an
}

// A unit is no acronym: SciFact's "mg/dL" and "500 mL" matched "deep
// learning versus classical machine learning" as DL and ML, so the query
// was answered over clinical papers. A paper's word in other capitals
// ("dL", "eGFR") is not the acronym ("DL", "EGFR"), typed or long form's,
// nor the other way round: "eGFR" typed is no EGFR, "mAP" no MAP.
func TestUnitsAreNoAcronyms(t *testing.T) {
	papers := []Paper{
		{ID: "dl", Title: "Screening retinal scans", Abstract: "We apply deep learning (DL) to retinal images. DL models reach expert accuracy."},
		{ID: "units", Title: "Creatinine and kidney outcomes", Abstract: "Serum creatinine above 1.5 mg/dL predicted kidney failure. Patients received 500 mL of saline."},
		{ID: "egfr", Title: "Kidney function decline", Abstract: "The estimated glomerular filtration rate (eGFR) declined with age."},
		{ID: "receptor", Title: "Receptor signalling in tumours", Abstract: "The epidermal growth factor receptor (EGFR) drives tumour growth."},
		{ID: "bayes", Title: "Posterior modes", Abstract: "The MAP estimate is the mode of the posterior."},
		{ID: "detect", Title: "Fast object detection", Abstract: "Our detector reaches 50 mAP on COCO."},
	}
	ix := openT(t, &Corpus{Papers: papers}, Options{})
	for q, not := range map[string]string{"deep learning": "units", "DL": "units", "ML": "units", "EGFR": "egfr", "epidermal growth factor receptor": "egfr",
		"eGFR": "receptor", "eGFR decline": "receptor", "mAP on COCO": "bayes", "MAP estimate": "detect"} {
		res, err := ix.Search(t.Context(), Request{Text: q, Limit: 5})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Results {
			if r.ID == not && len(r.Matched) > 0 {
				t.Errorf("%q: paper %q matched %q", q, r.ID, r.Matched)
			}
		}
	}
}

// A paper's acronym in capitals that only shares a stem with the one asked
// for is another acronym: the [CLS] token is not continual learning's CL
// (it had counted half, as "clipping" does for CLIP).
func TestAnotherAcronymInCapitals(t *testing.T) {
	papers := []Paper{
		{ID: "cls", Title: "Token pruning for vision transformers", Abstract: "We prune tokens by their attention to the CLS token of a vision transformer."},
		{ID: "cl", Title: "Rehearsal-free continual learning", Abstract: "Continual learning (CL) forgets old tasks. Our CL method keeps a prompt pool."},
	}
	ix := openT(t, &Corpus{Papers: papers}, Options{})
	res, err := ix.Search(t.Context(), Request{Text: "continual learning with vision transformers", Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Results {
		if r.ID == "cls" && slices.ContainsFunc(r.Matched, func(m string) bool { return strings.HasPrefix(m, "continual learning") }) {
			t.Errorf("the CLS-token paper matched %q", r.Matched)
		}
	}
}

// A long form no paper writes whole is searched as the long forms it is
// made of: no abstract says "knowledge base question answering" (KBQA), and
// the papers that merely have its four words apart were listed and refused
// while one answers "question answering over a knowledge base".
func TestUnwrittenLongFormSplits(t *testing.T) {
	ix := bigIndex(t)
	res, err := ix.Search(t.Context(), Request{Text: "knowledge base question answering", Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.NoMatch || len(res.Results) == 0 {
		t.Fatalf("refused (confidence %.2f, %d results)", res.Confidence, len(res.Results))
	}
	top := res.Results[0]
	if text := strings.ToLower(top.Title + " " + top.Abstract); !strings.Contains(text, "knowledge base") || !strings.Contains(text, "question answering") {
		t.Errorf("top result %q is not about question answering over a knowledge base", top.Title)
	}
}

// An acronym expands only when the typed word spells it: Porter gives "ID"
// the stem of "IDE" and "RM" that of "RMS", but a user ID is no integrated
// development environment.
func TestAcronymMustBeSpelled(t *testing.T) {
	for _, tt := range []struct {
		typed, short string
		want         bool
	}{
		{"LLM", "LLM", true}, {"LLMs", "LLM", true}, {"llms", "LLM", true}, {"LLM", "LLMs", true},
		{"GCSF", "G-CSF", true}, {"SARS", "SARS", true},
		{"ID", "IDE", false}, {"OD", "ODE", false}, {"RM", "RMS", false}, {"RMS", "RM", false}, {"SD", "SDS", false}, {"Ig", "IgE", false},
	} {
		if got := spellsAcronym(tt.typed, tt.short); got != tt.want {
			t.Errorf("spellsAcronym(%q, %q) = %v, want %v", tt.typed, tt.short, got, tt.want)
		}
	}
	ix := papersIndex(t, []Paper{
		{ID: "ide", Title: "Code completion in the editor", Abstract: "We extend an integrated development environment with a completion model."},
		{ID: "userid", Title: "Tracing users", Abstract: "Each event carries a user ID and a time."},
		{ID: "other", Title: "Graph kernels", Abstract: "Kernels over graphs for molecules."},
	})
	res, err := ix.Search(context.Background(), Request{Text: "user ID", Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Results {
		if r.ID == "ide" {
			t.Errorf("\"user ID\" found the IDE paper (matched %v): ID was read as IDE", r.Matched)
		}
	}
	// Excluding ID does not exclude integrated development environments.
	res, err = ix.Search(context.Background(), Request{Text: "completion model -ID", Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) == 0 || res.Results[0].ID != "ide" {
		t.Errorf("\"completion model -ID\" = %v, want the IDE paper first: excluding ID excluded IDE", ids(res.Results))
	}
}

// An identifier that is an acronym whole stands for its own long form, not
// its parts' ones: "k-NN" over the seeds, which have no nearest-neighbour
// paper, listed a paper on neural networks as its answer, "NN (neural
// networks)".
func TestIdentifierAcronymWhole(t *testing.T) {
	ix, _ := seedIndex(t)
	res, err := ix.Search(t.Context(), Request{Text: "k-NN", Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !res.NoMatch {
		t.Errorf("k-NN over the seeds: answered, want nothing relevant")
	}
	for _, r := range res.Results {
		if slices.ContainsFunc(r.Matched, func(m string) bool { return strings.Contains(m, "neural") }) {
			t.Errorf("k-NN: %q matched %q", r.Title, r.Matched)
		}
	}
}

// A long form is not looked for as its acronym where the corpus uses the
// acronym for something else: machine-learning papers of 2024 write "TTS"
// for text-to-speech, and "test-time scaling" listed speech synthesis.
func TestMinorityMeaningOfAnAcronym(t *testing.T) {
	ix := bigIndex(t)
	for _, q := range []string{"test-time scaling for reasoning models", "test-time scaling"} {
		res, err := ix.Search(t.Context(), Request{Text: q, Limit: 5})
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range res.Results {
			if says(r, "text-to-speech", "speech synthesis") {
				t.Errorf("%q: result %d %q is on text-to-speech (matched %v)", q, i+1, r.Title, r.Matched)
			}
		}
	}
	an := testAnalyzers(t)
	var papers []Paper
	for range 6 {
		papers = append(papers, Paper{Abstract: "Zero-shot text-to-speech (TTS) with codecs."})
	}
	tab := newAcronymTable(an.text, mineAcronyms(papers))
	for _, e := range tab.byAcronym["tt"] {
		if want := e.text == "test-time scaling"; e.short == "TTS" && tab.minority(e) != want {
			t.Errorf("TTS as %q: minority %v, want %v", e.text, !want, want)
		}
	}
}

// Long forms of the same words with different stop words ("dynamic sparse
// training", "dynamic sparse no training") group a query the same way on
// every start: the typed phrase is the one without the stop word. The
// table is filled from a map, so each open may order them differently.
func TestLongFormGroupingIsStable(t *testing.T) {
	papers := []Paper{
		{ID: "dst", Title: "Sparse networks from scratch", Abstract: "Dynamic Sparse Training (DST) prunes and regrows weights while the network trains."},
		{ID: "dsnt", Title: "Sparse LLMs without retraining", Abstract: "Dynamic Sparse No Training (DSNT) updates sparse LLMs with no training at all."},
	}
	for range 20 {
		ix := papersIndex(t, slices.Clone(papers))
		res, err := ix.Search(t.Context(), Request{Text: "dynamic sparse training"})
		if err != nil || len(res.Results) == 0 {
			t.Fatalf("no results: %v", err)
		}
		if got := res.Results[0].Matched; !slices.Equal(got, []string{"dynamic sparse training"}) {
			t.Fatalf("first paper %s matched %q, want the phrase as one", res.Results[0].ID, got)
		}
	}
}
