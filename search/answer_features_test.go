package search

import (
	"context"
	"strings"
	"testing"
)

func TestSectionLabel(t *testing.T) {
	tests := []struct {
		s    string
		want section
	}{
		{"RESULTS Of the 32,441 appendix samples 16 were positive.", secResults},
		{"CONCLUSIONS AND RELEVANCE Mental health conditions are common.", secConclusion},
		{"MAIN OUTCOME MEASURES Change in weight over 4 years.", secMethods},
		{"OBJECTIVE To assess whether screening helps.", secObjective},
		{"Background: Little is known about X.", secBackground},
		{"Conclusions/Significance: It works.", secConclusion},
		{"DNA damage response genes were silenced.", secNone},
		{"HIV-1 infection persists.", secNone},
		{"Methods for ranking papers: a survey.", secNone},
		{"We show that it works.", secNone},
	}
	for _, tt := range tests {
		if got := sectionLabel(tt.s); got != tt.want {
			t.Errorf("sectionLabel(%q) = %d, want %d", tt.s, got, tt.want)
		}
	}
}

// The phrase table finds exactly what a strings.Contains per phrase finds.
func TestPhraseTableMatchesContains(t *testing.T) {
	lists := map[phraseKind][]string{
		phFinding: findingCuePhrases, phStat: statPhrases, phChange: changePhrases, phHedge: hedgePhrases,
		phNegation: negationPhrases, phFraming: framingPhrases, phContrib: contribPhrases, phUnknown: unknownPhrases,
		phPurpose: purposePhrases(), phProcedure: procedurePhrases, phPointer: pointerPhrases, phSetting: settingPhrases, phCueFinding: append(append([]string(nil), findingPhrases...), findingClaims...),
	}
	_, c := seedIndex(t)
	n := 0
	for _, p := range c.Papers {
		for _, sp := range sentences(p.Abstract) {
			low := string(lowerPadded(nil, p.Abstract[sp.Start:sp.End]))
			var want uint64
			for k, list := range lists {
				for _, ph := range list {
					if strings.Contains(low, ph) {
						want |= 1 << k
					}
				}
			}
			if got := cuePhrases.mask(low); got != want {
				t.Errorf("mask(%q) = %b, want %b", low, got, want)
			}
			n++
		}
	}
	if n < 100 {
		t.Fatalf("only %d seed sentences checked", n)
	}
}

// A question about a study gets the sentence that gives its result, not the
// objective that restates the question nor the background, even when those
// repeat more of the question's words.
func TestAnswerGivesTheFinding(t *testing.T) {
	papers := []Paper{
		{ID: "vitd", Title: "Vitamin D and fractures in older adults: a randomised trial",
			Abstract: "BACKGROUND Fractures in older adults are common and costly, and vitamin D supplementation is widely used to reduce fracture risk. " +
				"OBJECTIVE To determine whether vitamin D supplementation reduces fracture risk in older adults. " +
				"METHODS We randomised 2,686 adults aged 65 to 85 years to vitamin D or placebo for five years. " +
				"RESULTS Fractures occurred in 119 of 1,345 participants given vitamin D and 149 of 1,341 given placebo (relative risk 0.78, 95% CI 0.61 to 0.99). " +
				"CONCLUSIONS Supplementation lowered the risk of fractures by a fifth."},
		{ID: "kv", Title: "Compressing the KV cache of language models",
			Abstract: "Serving large language models is limited by the memory of the KV cache. " +
				"It remains unclear whether KV cache compression preserves accuracy on long contexts. " +
				"We propose SqueezeKV, which quantises cached keys and values to two bits. " +
				"On eight long-context benchmarks SqueezeKV keeps accuracy within 0.5 points of the full cache while using a quarter of its memory."},
		{ID: "bcl2", Title: "Leukemia cells need BCL2",
			Abstract: "Leukemia cells depend on survival signals from their niche. " +
				"To test this, we generated mice that express MYC together with a BCL2 gene we can switch off, and that develop leukemia. " +
				"Switching BCL2 off cleared the leukemia cells within days and doubled the survival of the mice."},
		{ID: "prune", Title: "Beating power laws by pruning data",
			Abstract: "Neural scaling laws say test error falls as a power of the dataset size. " +
				"We show that keeping only the hardest examples makes error fall exponentially instead, beating power law scaling. " +
				"Code for the data pruning metrics and scaling law fits is available at https://github.com/example/data-pruning."},
		{ID: "other", Title: "Graph neural networks for molecules",
			Abstract: "We study message passing networks on molecular graphs. They predict energies well."},
	}
	ix := papersIndex(t, papers)
	tests := []struct{ q, want string }{
		{"does vitamin D supplementation reduce fracture risk in older adults?", "RESULTS Fractures occurred"},
		{"does KV cache compression preserve accuracy on long contexts?", "keeps accuracy within 0.5 points"},
		// What was done is no answer, though it names every word asked.
		{"BCL2 in MYC leukemia mice", "Switching BCL2 off cleared"},
		// Nor is where the code is.
		{"what did people find about scaling laws for data pruning", "makes error fall exponentially"},
	}
	for _, tt := range tests {
		res, err := ix.Search(context.Background(), Request{Text: tt.q, Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Results) == 0 {
			t.Fatalf("%q: no results", tt.q)
		}
		if a := res.Results[0].Answer; !strings.Contains(a, tt.want) {
			t.Errorf("%q: answer %q, want the sentence with %q", tt.q, a, tt.want)
		}
	}
}

// Nor is the answer what everyone knows, however much of the question it
// repeats: over the real papers, "Batch Normalization (BatchNorm) is a
// widely adopted technique ..." is not why it helps.
func TestAnswerIsNotTheSetting(t *testing.T) {
	ix := bigIndex(t)
	res, err := ix.Search(t.Context(), Request{Text: "why does batch normalization help optimization", Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if a := firstAnswer(res); !strings.Contains(a, "optimization landscape significantly smoother") {
		t.Errorf("answer %q, want the finding that BatchNorm smooths the optimization landscape", a)
	}
}

// How an ML abstract opens sets the scene: what a method has shown, what
// remains a challenge, what methods typically do. A finding that beats
// existing methods does not.
func TestSettingPhrases(t *testing.T) {
	for s, want := range map[string]bool{
		"Sparsely activated Mixture-of-Experts (SMoE) has shown promise to scale up the learning capacity of neural networks.": true,
		"Catastrophic forgetting emerges as a critical challenge when fine-tuning multi-modal large language models.":          true,
		"Achieving precise unlearning typically involves fully retraining the model.":                                          true,
		"A common approach is to raise the decoding temperature.":                                                              true,
		"Our method outperforms existing methods by 4 points on GSM8K.":                                                        false,
		"Text-to-3D generation has made remarkable progress recently, driven by score distillation.":                           true,
		"Modeling long-range dependencies is a longstanding goal in machine learning.":                                         true,
		"To let weak clients take part, previous works tackle this problem by pruning the model.":                              true,
		"Most existing methods rely on paired data.":                                                                           true,
		"Tabular biomedical data poses challenges in machine learning because it is high-dimensional.":                         true,
		"Insertion and deletion metrics have been extensively applied to evaluate attributions.":                               true,
		"Computing homotopy groups has long been a fundamental objective in topology.":                                         true,
		"While OOD detection commonly relies on labeled data, anomaly detection does not.":                                     true,
		"Incomplete multi-view clustering methods typically encounter three drawbacks.":                                        true,
		"However, most literature only considers a few sharpness measures.":                                                    true,
		"Speculative decoding is a relatively new decoding framework.":                                                         true,
		"We make significant progress on the PathX task.":                                                                      false,
		"Our method outperforms previous works on three benchmarks.":                                                           false,
		"We show that the loss changes the precision-recall trade-off.":                                                        false,
	} {
		var f answerFeatures
		textFeatures(&f, s, string(lowerPadded(nil, s)))
		if got := f[featSetting] == 1; got != want {
			t.Errorf("%q sets the scene: %v, want %v", s, got, want)
		}
	}
}
