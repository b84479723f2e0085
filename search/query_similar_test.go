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

// Papers like a KV-cache paper are KV-cache papers: two-letter acronyms in
// capitals count among a paper's words, and the ranking is BM25 of them all
// (eval --similar). Like KIVI came a paper on collective communication first.
func TestSimilarKeepsTwoLetterAcronyms(t *testing.T) {
	ix := bigIndex(t)
	p, err := ix.Lookup(t.Context(), "KIVI")
	if err != nil {
		t.Fatal(err)
	}
	res, err := ix.Similar(t.Context(), p.ID, 5)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	var got []string
	for _, r := range res.Results {
		if says(r, "kv cache", "key-value cache", "kv-cache") {
			n++
		}
		got = append(got, r.Title)
	}
	if n < 4 {
		t.Errorf("papers like KIVI: %d of %d on the KV cache: %q", n, len(res.Results), got)
	}
}
