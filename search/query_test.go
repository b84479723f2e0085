package search

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestParseQuery(t *testing.T) {
	yes, no := true, false
	tests := []struct {
		name string
		in   string
		want parsedQuery
	}{
		{"words", "kv cache", parsedQuery{text: []clause{{text: "kv"}, {text: "cache"}}}},
		{"phrase", `"flow matching" models`, parsedQuery{text: []clause{{text: "flow matching", phrase: true}, {text: "models"}}}},
		{"smart quotes", "“flow matching”", parsedQuery{text: []clause{{text: "flow matching", phrase: true}}}},
		{"exclusions", `diffusion -image -"text to speech"`, parsedQuery{
			text:    []clause{{text: "diffusion"}},
			exclude: []clause{{text: "image"}, {text: "text to speech", phrase: true}},
		}},
		{"hyphenated word is not an exclusion", "state-of-the-art", parsedQuery{text: []clause{{text: "state-of-the-art"}}}},
		{"lone dash is punctuation", "graphs - molecules", parsedQuery{text: []clause{{text: "graphs"}, {text: "molecules"}}}},
		{"field filters", `title:transformer author:"Tommi Jaakkola" venue:icml`, parsedQuery{fields: []fieldClause{
			{field: fieldTitle, clause: clause{text: "transformer"}},
			{field: fieldAuthors, clause: clause{text: "Tommi Jaakkola", phrase: true}},
			{field: fieldVenue, clause: clause{text: "icml"}},
		}}},
		{"field names ignore case", "Title:graphs", parsedQuery{fields: []fieldClause{{field: fieldTitle, clause: clause{text: "graphs"}}}}},
		{"a link asked for", "link to the DPO paper", parsedQuery{text: []clause{{text: "the"}, {text: "DPO"}, {text: "paper"}}}},
		{"link prediction is a topic", "link prediction for knowledge graphs", parsedQuery{text: []clause{
			{text: "link"}, {text: "prediction"}, {text: "for"}, {text: "knowledge"}, {text: "graphs"},
		}}},
		{"links to as a verb is text", "Cellular aging closely links to an older appearance.", parsedQuery{text: []clause{
			{text: "Cellular"}, {text: "aging"}, {text: "closely"}, {text: "links"}, {text: "to"}, {text: "an"}, {text: "older"}, {text: "appearance."},
		}}},
		{"a year typed short is the year", "NeurIPS '24 or ICML’25, not 5'UTR or '25%", parsedQuery{text: []clause{
			{text: "NeurIPS"}, {text: "2024"}, {text: "or"}, {text: "ICML"}, {text: "2025,"}, {text: "not"}, {text: "5'UTR"}, {text: "or"}, {text: "'25%"},
		}}},
		{"code names are their words", "`flash_attn` scaled_dot_product l_inf x_t CRF01_AE", parsedQuery{text: []clause{
			{text: "`flash"}, {text: "attn`"}, {text: "scaled"}, {text: "dot"}, {text: "product"}, {text: "l_inf"}, {text: "x_t"}, {text: "CRF01_AE"},
		}}},
		{"code asked for in words", "DPO with code available", parsedQuery{text: []clause{{text: "DPO"}}, hasCode: &yes}},
		{"papers with code", "diffusion papers with code", parsedQuery{text: []clause{{text: "diffusion"}, {text: "papers"}}, hasCode: &yes}},
		{"open-source implementation", "open source implementation of flash attention", parsedQuery{text: []clause{{text: "flash"}, {text: "attention"}}, hasCode: &yes}},
		{"code as a topic", "LLMs trained with code", parsedQuery{text: []clause{{text: "LLMs"}, {text: "trained"}, {text: "with"}, {text: "code"}}}},
		{"chat label", "Q: what is grokking?", parsedQuery{text: []clause{{text: "what"}, {text: "is"}, {text: "grokking?"}}, question: true}},
		{"a title's colon is text", "Mamba: linear-time", parsedQuery{text: []clause{{text: "Mamba:"}, {text: "linear-time"}}}},
		{"time framing", "RL papers from last year, published in 2024", parsedQuery{
			text: []clause{{text: "RL"}, {text: "papers"}, {text: "from"}, {text: "in"}, {text: "2024"}},
		}},
		// The title in words: a filter, as title: is.
		{"in the title", `the paper with "grokking" in the title`, parsedQuery{
			text:   []clause{{text: "the"}, {text: "paper"}, {text: "with"}},
			fields: []fieldClause{{field: fieldTitle, clause: clause{text: "grokking", phrase: true}}},
		}},
		{"in its title", "mamba in its title, please", parsedQuery{
			text:   []clause{{text: "please"}},
			fields: []fieldClause{{field: fieldTitle, clause: clause{text: "mamba"}}},
		}},
		{"called a title", `a paper called "Vision Transformers Need Registers"`, parsedQuery{
			text: []clause{{text: "a"}, {text: "paper"}, {text: "Vision Transformers Need Registers", phrase: true}},
		}},
		{"in the title, after punctuation: words", "grokking. in the title", parsedQuery{
			text: []clause{{text: "grokking."}, {text: "in"}, {text: "the"}, {text: "title"}},
		}},
		{"negated field", "graphs -author:smith", parsedQuery{
			text:   []clause{{text: "graphs"}},
			fields: []fieldClause{{field: fieldAuthors, clause: clause{text: "smith"}, not: true}},
		}},
		{"year", "year:2025", parsedQuery{years: []yearClause{{min: 2025, max: 2025}}}},
		{"year range", "year:2020..2024", parsedQuery{years: []yearClause{{min: 2020, max: 2024}}}},
		{"year dash range", "year:2020-2024", parsedQuery{years: []yearClause{{min: 2020, max: 2024}}}},
		{"year at least", "year:>=2023", parsedQuery{years: []yearClause{{min: 2023}}}},
		{"year after", "year:>2023", parsedQuery{years: []yearClause{{min: 2024}}}},
		{"year before", "year:<2020", parsedQuery{years: []yearClause{{max: 2019}}}},
		{"year open range", "year:..2020", parsedQuery{years: []yearClause{{max: 2020}}}},
		{"has code", "has:code graphs", parsedQuery{text: []clause{{text: "graphs"}}, hasCode: &yes}},
		{"has no code", "graphs -has:code", parsedQuery{text: []clause{{text: "graphs"}}, hasCode: &no}},
		{"url is a word", "https://github.com/x/y", parsedQuery{text: []clause{{text: "https://github.com/x/y"}}}},
		{"question", "which paper rediscovers the Kramers-Wannier duality?", parsedQuery{question: true, text: []clause{
			{text: "which"}, {text: "paper"}, {text: "rediscovers"}, {text: "the"}, {text: "Kramers-Wannier"}, {text: "duality?"},
		}}},
		{"trailing question mark is text, not a wildcard", "graphs?", parsedQuery{question: true, text: []clause{{text: "graphs?"}}}},
		{"space after a filter's colon", `Title: scaling laws author: "Tommi Jaakkola" year: 2025`, parsedQuery{
			text: []clause{{text: "laws"}},
			fields: []fieldClause{
				{field: fieldTitle, clause: clause{text: "scaling"}},
				{field: fieldAuthors, clause: clause{text: "Tommi Jaakkola", phrase: true}},
			},
			years: []yearClause{{min: 2025, max: 2025}},
		}},
		{"quote glued to a word", `foo"bar baz"`, parsedQuery{text: []clause{{text: "foo"}, {text: "bar baz", phrase: true}}}},
		{"greeting dropped, request is a question", "hey! looking for protein design", parsedQuery{question: true, text: []clause{
			{text: "looking"}, {text: "for"}, {text: "protein"}, {text: "design"},
		}}},
		{"imperative is a question", "explain flash attention", parsedQuery{question: true, text: []clause{{text: "explain"}, {text: "flash"}, {text: "attention"}}}},
		{"but not excludes", "diffusion models but not for images", parsedQuery{
			text: []clause{{text: "diffusion"}, {text: "models"}}, exclude: []clause{{text: "images"}},
		}},
		{"excluding excludes up to the punctuation", "graph networks excluding molecule generation, with theory", parsedQuery{
			text:    []clause{{text: "graph"}, {text: "networks"}, {text: "with"}, {text: "theory"}},
			exclude: []clause{{text: "molecule generation", phrase: true}},
		}},
		{"a long run after except is text", "models except those we trained on the cluster", parsedQuery{text: []clause{
			{text: "models"}, {text: "except"}, {text: "those"}, {text: "we"}, {text: "trained"}, {text: "on"}, {text: "the"}, {text: "cluster"},
		}}},
		{"not based on excludes", "image generation that isn't based on diffusion", parsedQuery{
			text: []clause{{text: "image"}, {text: "generation"}}, exclude: []clause{{text: "diffusion"}},
		}},
		{"not based on excludes without that", "GANs not based on CNNs", parsedQuery{text: []clause{{text: "GANs"}}, exclude: []clause{{text: "CNNs"}}}},
		// Papers on attention-free models say "attention".
		{"don't use is text", "models that don't use attention", parsedQuery{text: []clause{
			{text: "models"}, {text: "that"}, {text: "don't"}, {text: "use"}, {text: "attention"},
		}}},
		{"not alone is a word", "not all tokens", parsedQuery{text: []clause{{text: "not"}, {text: "all"}, {text: "tokens"}}}},
		{"italics", "_kv cache_ max_len", parsedQuery{text: []clause{{text: "kv"}, {text: "cache"}, {text: "max"}, {text: "len"}}}},
		{"hi after the first word is a word", "Ly6C hi monocytes", parsedQuery{text: []clause{{text: "Ly6C"}, {text: "hi"}, {text: "monocytes"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseQuery(tt.in)
			if err != nil {
				t.Fatalf("parseQuery(%q): %v", tt.in, err)
			}
			if !reflect.DeepEqual(*got, tt.want) {
				t.Errorf("parseQuery(%q)\n got %+v\nwant %+v", tt.in, *got, tt.want)
			}
		})
	}
}

func TestParseQueryErrors(t *testing.T) {
	tests := []struct {
		name, in string
		msg      []string // substrings of the friendly message
	}{
		{"empty", "   ", []string{"empty", "type a few words"}},
		{"unclosed quote", `"flow matching`, []string{"never closed", `add a closing "`}},
		{"unclosed quote in filter", `title:"flow`, []string{"never closed"}},
		{"year not a number", "year:abc", []string{"year:abc", "year:2025", "year:2020..2024"}},
		{"year two digits", "year:25", []string{"year:25"}},
		{"year range backwards", "year:2024..2020", []string{"backwards", "year:2020..2024"}},
		{"empty filter", "title:", []string{"title:", "needs a value", "title:transformer"}},
		{"filter before a filter", "title: year:2025", []string{"title:", "needs a value"}},
		{"has other", "has:data", []string{"has:data", "has:code"}},
		{"only exclusions", "-image -video", []string{"only excludes", "add at least one word"}},
		{"only negated filter", "-has:code", []string{"only excludes"}},
		{"contradicting years", "year:2020 year:2024", []string{"cannot both hold"}},
		{"contradicting has", "has:code -has:code", []string{"cannot both hold"}},
		{"too long", strings.Repeat("word ", 300), []string{"too long", "similar"}},
		{"too many words", strings.Repeat("a ", 70), []string{"too many words"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseQuery(tt.in)
			if err == nil {
				t.Fatalf("parseQuery(%q): no error", tt.in)
			}
			if KindOf(err) != Invalid {
				t.Errorf("kind %v, want invalid", KindOf(err))
			}
			msg := Message(err)
			for _, want := range tt.msg {
				if !strings.Contains(msg, want) {
					t.Errorf("message %q lacks %q", msg, want)
				}
			}
			if strings.Contains(strings.ToLower(msg), "syntax error") || strings.Contains(msg, "bleve") {
				t.Errorf("message %q leaks parser internals", msg)
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
		q, err := parseQuery(in)
		if err != nil {
			t.Errorf("parseQuery(%q): %v", in, err)
			continue
		}
		if len(q.fields) != 0 || len(q.text) == 0 {
			t.Errorf("parseQuery(%q): fields %v, text %v; want text only", in, q.fields, q.text)
		}
	}
	q, err := parseQuery("title:graph regressing: x")
	if err != nil || len(q.fields) != 1 {
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

// A microRNA is written "miR-17" or "miRNA" as often as "microRNA": the
// paper on the miR-17-92 cluster in cancer stem cells is one on microRNAs.
func TestMicroRNASpellings(t *testing.T) {
	papers := []Paper{
		{ID: "mir", Title: "DNMT1 inhibition reprograms pancreatic cancer stem cells", Abstract: "DNMT1 regulates the miR-17-92 cluster; blocking it turns pancreatic cancer stem cells into non-tumorigenic cells."},
		{ID: "other", Title: "Cancer stem cells in the colon", Abstract: "We trace how cancer stem cells of the colon divide and what regulates their number."},
	}
	ix := papersIndex(t, papers)
	res := mustFind(t, ix, "microRNA regulation of cancer stem cells")
	if len(res.Results) == 0 || res.Results[0].ID != "mir" || !slices.Contains(res.Results[0].Matched, "microRNA (miR)") {
		t.Fatalf("results %v, want the miR-17-92 paper first, matched as a microRNA", ids(res.Results))
	}
}

// British and American spellings find each other's papers, which the Porter
// stemmer keeps apart ("behaviour"/"behavior", "fibre"/"fiber",
// "dialogue"/"dialog", "ischaemic"/"ischemic"), and a word is no rarer for
// being spelled the uncommon way.
func TestBritishAndAmericanSpellings(t *testing.T) {
	ix := papersIndex(t, []Paper{
		{ID: "fibre", Title: "Imaging through multimode optical fibres", Abstract: "We invert the transmission effects of multimode fibres with a deep network."},
		{ID: "behaviour", Title: "Modelling animal behaviour", Abstract: "Behavioural data of mice, modelled with recurrent networks."},
		{ID: "dialogue", Title: "Task-oriented dialogue", Abstract: "A dialogue system that books flights."},
		{ID: "ischemic", Title: "Ischemic stroke outcomes", Abstract: "Patients with ischemic stroke were followed for a year."},
		{ID: "register", Title: "Image registration", Abstract: "Registration of medical images by deformable networks."},
		{ID: "other", Title: "Graph kernels", Abstract: "Kernels over graphs for molecules."},
	})
	for q, want := range map[string]string{
		"multimode fiber imaging":   "fibre",
		"animal behavior modeling":  "behaviour",
		"dialog systems":            "dialogue",
		"ischaemic stroke outcomes": "ischemic",
	} {
		res := mustFind(t, ix, q)
		if res.NoMatch || res.Results[0].ID != want {
			t.Errorf("%q: first %s (no_match %v), want %s", q, res.Results[0].ID, res.NoMatch, want)
		}
	}
	// An ending rule would make "register" "registre", stemmed as
	// "registration" is.
	if v := altsOfKind(t, liveState(t, ix), "register allocation", altSpelling); len(v) > 0 {
		t.Errorf("register allocation is also searched as %q", v)
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
		pq, err := parseQuery(q)
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		var got []string
		for _, c := range pq.text {
			if c.phrase {
				got = append(got, c.text)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: phrases %q, want %q", q, got, want)
		}
	}
	pq, err := parseQuery("-'image generation' diffusion")
	if err != nil || len(pq.exclude) != 1 || pq.exclude[0].text != "image generation" {
		t.Errorf("-'image generation': excludes %v, %v", pq.exclude, err)
	}
}
