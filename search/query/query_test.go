package query

import (
	"reflect"
	"slices"
	"testing"
)

func TestParseQuery(t *testing.T) {
	yes, no := true, false
	tests := []struct {
		name string
		in   string
		want Parsed
	}{
		{"words", "kv cache", Parsed{Text: []Clause{{Text: "kv"}, {Text: "cache"}}}},
		{"phrase", `"flow matching" models`, Parsed{Text: []Clause{{Text: "flow matching", Phrase: true}, {Text: "models"}}}},
		{"smart quotes", "“flow matching”", Parsed{Text: []Clause{{Text: "flow matching", Phrase: true}}}},
		{"exclusions", `diffusion -image -"text to speech"`, Parsed{
			Text:    []Clause{{Text: "diffusion"}},
			Exclude: []Clause{{Text: "image"}, {Text: "text to speech", Phrase: true}},
		}},
		{"hyphenated word is not an exclusion", "state-of-the-art", Parsed{Text: []Clause{{Text: "state-of-the-art"}}}},
		{"lone dash is punctuation", "graphs - molecules", Parsed{Text: []Clause{{Text: "graphs"}, {Text: "molecules"}}}},
		{"field filters", `title:transformer author:"Tommi Jaakkola" venue:icml`, Parsed{Fields: []FieldClause{
			{Field: FieldTitle, Clause: Clause{Text: "transformer"}},
			{Field: FieldAuthors, Clause: Clause{Text: "Tommi Jaakkola", Phrase: true}},
			{Field: FieldVenue, Clause: Clause{Text: "icml"}},
		}}},
		{"field names ignore case", "Title:graphs", Parsed{Fields: []FieldClause{{Field: FieldTitle, Clause: Clause{Text: "graphs"}}}}},
		{"a link asked for", "link to the DPO paper", Parsed{Text: []Clause{{Text: "the"}, {Text: "DPO"}, {Text: "paper"}}}},
		{"link prediction is a topic", "link prediction for knowledge graphs", Parsed{Text: []Clause{
			{Text: "link"}, {Text: "prediction"}, {Text: "for"}, {Text: "knowledge"}, {Text: "graphs"},
		}}},
		{"links to as a verb is text", "Cellular aging closely links to an older appearance.", Parsed{Text: []Clause{
			{Text: "Cellular"}, {Text: "aging"}, {Text: "closely"}, {Text: "links"}, {Text: "to"}, {Text: "an"}, {Text: "older"}, {Text: "appearance."},
		}}},
		{"a year typed short is the year", "NeurIPS '24 or ICML’25, not 5'UTR or '25%", Parsed{Text: []Clause{
			{Text: "NeurIPS"}, {Text: "2024"}, {Text: "or"}, {Text: "ICML"}, {Text: "2025,"}, {Text: "not"}, {Text: "5'UTR"}, {Text: "or"}, {Text: "'25%"},
		}}},
		{"code names are their words", "`flash_attn` scaled_dot_product l_inf x_t CRF01_AE", Parsed{Text: []Clause{
			{Text: "`flash"}, {Text: "attn`"}, {Text: "scaled"}, {Text: "dot"}, {Text: "product"}, {Text: "l_inf"}, {Text: "x_t"}, {Text: "CRF01_AE"},
		}}},
		{"code asked for in words", "DPO with code available", Parsed{Text: []Clause{{Text: "DPO"}}, HasCode: &yes}},
		{"papers with code", "diffusion papers with code", Parsed{Text: []Clause{{Text: "diffusion"}, {Text: "papers"}}, HasCode: &yes}},
		{"open-source implementation", "open source implementation of flash attention", Parsed{Text: []Clause{{Text: "flash"}, {Text: "attention"}}, HasCode: &yes}},
		{"code as a topic", "LLMs trained with code", Parsed{Text: []Clause{{Text: "LLMs"}, {Text: "trained"}, {Text: "with"}, {Text: "code"}}}},
		{"chat label", "Q: what is grokking?", Parsed{Text: []Clause{{Text: "what"}, {Text: "is"}, {Text: "grokking?"}}, Question: true}},
		{"a title's colon is text", "Mamba: linear-time", Parsed{Text: []Clause{{Text: "Mamba:"}, {Text: "linear-time"}}}},
		{"time framing", "RL papers from last year, published in 2024", Parsed{
			Text: []Clause{{Text: "RL"}, {Text: "papers"}, {Text: "from"}, {Text: "in"}, {Text: "2024"}},
		}},
		// The title in words: a filter, as title: is.
		{"in the title", `the paper with "grokking" in the title`, Parsed{
			Text:   []Clause{{Text: "the"}, {Text: "paper"}, {Text: "with"}},
			Fields: []FieldClause{{Field: FieldTitle, Clause: Clause{Text: "grokking", Phrase: true}}},
		}},
		{"in its title", "mamba in its title, please", Parsed{
			Text:   []Clause{{Text: "please"}},
			Fields: []FieldClause{{Field: FieldTitle, Clause: Clause{Text: "mamba"}}},
		}},
		{"called a title", `a paper called "Vision Transformers Need Registers"`, Parsed{
			Text: []Clause{{Text: "a"}, {Text: "paper"}, {Text: "Vision Transformers Need Registers", Phrase: true}},
		}},
		{"in the title, after punctuation: words", "grokking. in the title", Parsed{
			Text: []Clause{{Text: "grokking."}, {Text: "in"}, {Text: "the"}, {Text: "title"}},
		}},
		{"negated field", "graphs -author:smith", Parsed{
			Text:   []Clause{{Text: "graphs"}},
			Fields: []FieldClause{{Field: FieldAuthors, Clause: Clause{Text: "smith"}, Not: true}},
		}},
		{"year", "year:2025", Parsed{Years: []YearClause{{Min: 2025, Max: 2025}}}},
		{"year range", "year:2020..2024", Parsed{Years: []YearClause{{Min: 2020, Max: 2024}}}},
		{"year dash range", "year:2020-2024", Parsed{Years: []YearClause{{Min: 2020, Max: 2024}}}},
		{"year at least", "year:>=2023", Parsed{Years: []YearClause{{Min: 2023}}}},
		{"year after", "year:>2023", Parsed{Years: []YearClause{{Min: 2024}}}},
		{"year before", "year:<2020", Parsed{Years: []YearClause{{Max: 2019}}}},
		{"year open range", "year:..2020", Parsed{Years: []YearClause{{Max: 2020}}}},
		{"has code", "has:code graphs", Parsed{Text: []Clause{{Text: "graphs"}}, HasCode: &yes}},
		{"has no code", "graphs -has:code", Parsed{Text: []Clause{{Text: "graphs"}}, HasCode: &no}},
		{"url is a word", "https://github.com/x/y", Parsed{Text: []Clause{{Text: "https://github.com/x/y"}}}},
		{"question", "which paper rediscovers the Kramers-Wannier duality?", Parsed{Question: true, Text: []Clause{
			{Text: "which"}, {Text: "paper"}, {Text: "rediscovers"}, {Text: "the"}, {Text: "Kramers-Wannier"}, {Text: "duality?"},
		}}},
		{"trailing question mark is text, not a wildcard", "graphs?", Parsed{Question: true, Text: []Clause{{Text: "graphs?"}}}},
		{"space after a filter's colon", `Title: scaling laws author: "Tommi Jaakkola" year: 2025`, Parsed{
			Text: []Clause{{Text: "laws"}},
			Fields: []FieldClause{
				{Field: FieldTitle, Clause: Clause{Text: "scaling"}},
				{Field: FieldAuthors, Clause: Clause{Text: "Tommi Jaakkola", Phrase: true}},
			},
			Years: []YearClause{{Min: 2025, Max: 2025}},
		}},
		{"quote glued to a word", `foo"bar baz"`, Parsed{Text: []Clause{{Text: "foo"}, {Text: "bar baz", Phrase: true}}}},
		{"greeting dropped, request is a question", "hey! looking for protein design", Parsed{Question: true, Text: []Clause{
			{Text: "looking"}, {Text: "for"}, {Text: "protein"}, {Text: "design"},
		}}},
		{"imperative is a question", "explain flash attention", Parsed{Question: true, Text: []Clause{{Text: "explain"}, {Text: "flash"}, {Text: "attention"}}}},
		{"but not excludes", "diffusion models but not for images", Parsed{
			Text: []Clause{{Text: "diffusion"}, {Text: "models"}}, Exclude: []Clause{{Text: "images"}},
		}},
		{"excluding excludes up to the punctuation", "graph networks excluding molecule generation, with theory", Parsed{
			Text:    []Clause{{Text: "graph"}, {Text: "networks"}, {Text: "with"}, {Text: "theory"}},
			Exclude: []Clause{{Text: "molecule generation", Phrase: true}},
		}},
		{"a long run after except is text", "models except those we trained on the cluster", Parsed{Text: []Clause{
			{Text: "models"}, {Text: "except"}, {Text: "those"}, {Text: "we"}, {Text: "trained"}, {Text: "on"}, {Text: "the"}, {Text: "cluster"},
		}}},
		{"not based on excludes", "image generation that isn't based on diffusion", Parsed{
			Text: []Clause{{Text: "image"}, {Text: "generation"}}, Exclude: []Clause{{Text: "diffusion"}},
		}},
		{"not based on excludes without that", "GANs not based on CNNs", Parsed{Text: []Clause{{Text: "GANs"}}, Exclude: []Clause{{Text: "CNNs"}}}},
		// Papers on attention-free models say "attention".
		{"don't use is text", "models that don't use attention", Parsed{Text: []Clause{
			{Text: "models"}, {Text: "that"}, {Text: "don't"}, {Text: "use"}, {Text: "attention"},
		}}},
		{"not alone is a word", "not all tokens", Parsed{Text: []Clause{{Text: "not"}, {Text: "all"}, {Text: "tokens"}}}},
		{"italics", "_kv cache_ max_len", Parsed{Text: []Clause{{Text: "kv"}, {Text: "cache"}, {Text: "max"}, {Text: "len"}}}},
		{"hi after the first word is a word", "Ly6C hi monocytes", Parsed{Text: []Clause{{Text: "Ly6C"}, {Text: "hi"}, {Text: "monocytes"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseText(tt.in)
			if err != nil {
				t.Fatalf("ParseText(%q): %v", tt.in, err)
			}
			if !reflect.DeepEqual(*got, tt.want) {
				t.Errorf("ParseText(%q)\n got %+v\nwant %+v", tt.in, *got, tt.want)
			}
		})
	}
}

// A colon in ordinary text is text: only a filter word before it makes a
// filter, so a query that reads like a sentence never fails.
func TestColonInText(t *testing.T) {
	for _, in := range []string{
		"why do language models stop regressing: a study",
		"note: sparse attention",
		"ratio 3:1 mixing",
	} {
		q, err := ParseText(in)
		if err != nil {
			t.Errorf("ParseText(%q): %v", in, err)
			continue
		}
		if len(q.Fields) != 0 || len(q.Text) == 0 {
			t.Errorf("ParseText(%q): fields %v, text %v; want text only", in, q.Fields, q.Text)
		}
	}
	q, err := ParseText("title:graph regressing: x")
	if err != nil || len(q.Fields) != 1 {
		t.Errorf("a known filter beside a colon in text: %v, %+v", err, q)
	}
}

func TestIsQuestion(t *testing.T) {
	for in, want := range map[string]bool{
		"which paper makes LLM prefill faster": true,
		"KV cache?":                            true,
		"How do transformers learn":            true,
		"kv cache":                             false,
		"has:code graphs":                      false,
		"diffusion models for audio":           false,
	} {
		if got := isQuestion(in); got != want {
			t.Errorf("isQuestion(%q) = %v, want %v", in, got, want)
		}
	}
}

// Single quotes make a phrase when they wrap words, as double quotes do;
// an apostrophe inside or after a word ("Bengio's", "can't", "models'")
// is part of it.
func TestSingleQuotedPhrase(t *testing.T) {
	for q, want := range map[string][]string{
		"papers like 'Attention is all you need' but for graphs": {"Attention is all you need"},
		"‘in-context learning’ theory":                           {"in-context learning"},
		"-'image generation' diffusion":                          nil,
		"Bengio's work on GFlowNets":                             nil,
		"why can't LLMs' answers be trusted":                     nil,
		"don't 'overfit":                                         nil,
		"''progerinonly'' allele":                                {"'progerinonly'"},
	} {
		pq, err := ParseText(q)
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		var got []string
		for _, c := range pq.Text {
			if c.Phrase {
				got = append(got, c.Text)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: phrases %q, want %q", q, got, want)
		}
	}
	pq, err := ParseText("-'image generation' diffusion")
	if err != nil || len(pq.Exclude) != 1 || pq.Exclude[0].Text != "image generation" {
		t.Errorf("-'image generation': excludes %v, %v", pq.Exclude, err)
	}
}
