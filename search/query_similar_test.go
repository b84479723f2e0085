package search

import "testing"

func TestSimilarTarget(t *testing.T) {
	for text, want := range map[string]string{
		`papers similar to "Vision Transformers Need Registers"`: "Vision Transformers Need Registers",
		"similar to aay87f2q":     "aay87f2q",
		"anything like aay87f2q?": "aay87f2q",
		"hi, any papers related to Vision Transformers Need Registers?": "Vision Transformers Need Registers",
		"what else is like “SepLLM”":                                    "SepLLM",
		"more like this one please!":                                    "this one please",
		// Not requests for papers like one.
		"like a transformer but linear":               "",
		"related to diffusion":                        "",
		"similar":                                     "",
		"papers similar to":                           "",
		"how do diffusion models relate to flows":     "",
		"which loss is similar to cross entropy?":     "",
		"I want to find something like that for GNNs": "",
	} {
		got, ok := SimilarTarget(text)
		if got != want || ok != (want != "") {
			t.Errorf("SimilarTarget(%q) = %q, %v; want %q", text, got, ok, want)
		}
	}
}
