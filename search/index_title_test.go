package search

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// TestPapersTitled: a title finds the papers whose title holds it as a
// phrase, whatever its case and punctuation, and nothing else.
func TestPapersTitled(t *testing.T) {
	_, c := seedIndex(t)
	ix := openT(t, c, Options{})
	apply(t, ix, Batch{Upsert: []Paper{tardigrade("tard0001")}})
	ids := func(title string) []string {
		t.Helper()
		ps, err := ix.PapersTitled(context.Background(), title)
		if err != nil {
			t.Fatalf("PapersTitled(%q): %v", title, err)
		}
		var out []string
		for _, p := range ps {
			out = append(out, p.ID)
		}
		return out
	}
	for _, title := range []string{"Tardigrade cryptobiosis survives hard vacuum", "TARDIGRADE Cryptobiosis: survives hard-vacuum."} {
		if got := ids(title); !slices.Contains(got, "tard0001") {
			t.Errorf("PapersTitled(%q) = %q, want tard0001 among them", title, got)
		}
	}
	for _, title := range []string{"vacuum survives hard", "Tardigrade desiccation", "", "  "} {
		if got := ids(title); len(got) != 0 {
			t.Errorf("PapersTitled(%q) = %q, want none", title, got)
		}
	}
}

func TestLookup(t *testing.T) {
	ix, c := seedIndex(t)
	p := c.Papers[0]
	for _, ref := range []string{p.ID, " " + p.ID + " ", p.Title, strings.ToUpper(p.Title), strings.ReplaceAll(p.Title, ":", " -")} {
		got, err := ix.Lookup(t.Context(), ref)
		if err != nil || got.ID != p.ID {
			t.Errorf("Lookup(%q) = %s, %v; want %s", ref, got.ID, err, p.ID)
		}
	}
	// A typo or two in a whole title: still that paper.
	typo := strings.Replace(strings.Replace(p.Title, "a", "", 1), "e", "ee", 1)
	if got, err := ix.Lookup(t.Context(), typo); err != nil || got.ID != p.ID {
		t.Errorf("Lookup(%q) = %s, %v; want %s", typo, got.ID, err, p.ID)
	}
	// The name a title gives before its colon, alone: "SepLLM".
	for _, p := range c.Papers {
		name, _, ok := strings.Cut(p.Title, ":")
		if !ok || strings.ContainsAny(name, " -") {
			continue
		}
		for _, ref := range []string{name, strings.ToLower(name)} {
			if got, err := ix.Lookup(t.Context(), ref); err != nil || got.ID != p.ID {
				t.Errorf("Lookup(%q) = %s, %v; want %s", ref, got.ID, err, p.ID)
			}
		}
	}
	for _, ref := range []string{"zzzzzzzz", "no such title at all", "language models", "Accelerate"} {
		if _, err := ix.Lookup(t.Context(), ref); KindOf(err) != NotFound {
			t.Errorf("Lookup(%q): err %v, want NotFound", ref, err)
		}
	}
}

// A paper's own link, in any form people paste it (another version, the
// PDF, the Hugging Face page, the bare arXiv ID), finds that paper: as a
// reference to show or find papers like, and as a search of its own. A link
// no paper has is NotFound, said in words.
func TestPaperByLink(t *testing.T) {
	ix := papersIndex(t, []Paper{
		{ID: "sink0001", Title: "Efficient Streaming Language Models with Attention Sinks", URL: "https://arxiv.org/abs/2309.17453v1",
			Abstract: "Keeping the key and value states of the first tokens, attention sinks, lets window attention stream text of any length."},
		{ID: "regs0001", Title: "Vision Transformers Need Registers", URL: "https://openreview.net/forum?id=2dnO3LLiJ1",
			Abstract: "Adding register tokens to the input sequence of a vision transformer removes artifacts from its attention maps."},
		{ID: "code0001", Title: "A paper that links its code", URL: "https://icml.cc/virtual/2025/poster/45068",
			Abstract: "Code for our method, which also cites arxiv.org/abs/2309.17453, is at https://github.com/example/repo."},
	})
	for ref, want := range map[string]string{
		"https://arxiv.org/abs/2309.17453":         "sink0001",
		"arxiv.org/pdf/2309.17453v2":               "sink0001",
		"https://huggingface.co/papers/2309.17453": "sink0001",
		"2309.17453":         "sink0001",
		"arXiv:2309.17453":   "sink0001",
		"arxiv 2309.17453v3": "sink0001",
		"https://openreview.net/pdf?id=2dnO3LLiJ1":     "regs0001",
		"openreview.net/forum?id=2dnO3LLiJ1&noteId=x1": "regs0001",
		"http://www.icml.cc/virtual/2025/poster/45068": "code0001",
	} {
		if got, err := ix.Lookup(t.Context(), ref); err != nil || got.ID != want {
			t.Errorf("Lookup(%q) = %s, %v; want %s", ref, got.ID, err, want)
		}
		for _, q := range []string{ref, "this paper " + ref, "what about " + ref + "?"} {
			res := mustFind(t, ix, q)
			if len(res.Results) != 1 || res.Results[0].ID != want || res.NoMatch {
				t.Errorf("Search(%q) = %v (no_match %v); want only %s", q, ids(res.Results), res.NoMatch, want)
			}
		}
	}
	_, err := ix.Lookup(t.Context(), "https://arxiv.org/abs/2401.00001")
	if KindOf(err) != NotFound || !strings.Contains(Message(err), "no paper here has the link") {
		t.Errorf("a link no paper has: %v, want NotFound saying so", err)
	}
	// A code link no paper has as its own is looked for in the abstracts.
	if res := mustFind(t, ix, "https://github.com/example/repo"); len(res.Results) == 0 || res.Results[0].ID != "code0001" {
		t.Errorf("a code link found %v, want code0001 first", ids(res.Results))
	}
}

// A link to a paper the index does not hold, pasted beside words ("anything
// on <arxiv link|QLoRA>?", as Slack sends a named link), searches the words
// and names the link among what the papers lack; alone it is answered
// that no paper here has it.
func TestLinkToAPaperNotHeld(t *testing.T) {
	ix := papersIndex(t, []Paper{
		{ID: "qlor0001", Title: "Accurate Quantized Fine-Tuning of LLMs", URL: "https://openreview.net/forum?id=aaaaaaaaaa",
			Abstract: "We improve QLoRA, which fine-tunes a 4-bit quantized language model through low-rank adapters, by retaining the information quantization loses. Code: https://github.com/example/qlora."},
		{ID: "regs0001", Title: "Vision Transformers Need Registers", URL: "https://openreview.net/forum?id=2dnO3LLiJ1",
			Abstract: "Adding register tokens to the input sequence of a vision transformer removes artifacts from its attention maps."},
		{ID: "ogbn0001", Title: "Node Classification at Scale", URL: "https://openreview.net/forum?id=bbbbbbbbbb",
			Abstract: "We classify the nodes of ogbn-arxiv, a citation graph of arXiv papers, and cite DOI-registered datasets."},
	})
	const link = "arxiv.org/abs/2305.14314"
	for _, q := range []string{"anything on QLoRA https://" + link + " ?", "QLoRA <https://" + link + "|the paper>"} {
		res, err := ix.Search(t.Context(), Request{Text: q})
		if err != nil {
			t.Fatalf("Search(%q): %v", q, err)
		}
		if res.NoMatch || len(res.Results) == 0 || res.Results[0].ID != "qlor0001" {
			t.Errorf("Search(%q) = %v (no_match %v); want qlor0001 answered", q, ids(res.Results), res.NoMatch)
		}
		if len(res.Missing) == 0 || res.Missing[0] != link {
			t.Errorf("Search(%q): missing %q, want the link %s named first", q, res.Missing, link)
		}
	}
	// Alone, or with the label people type before an identifier: "arxiv"
	// is no topic (it found papers on the ogbn-arxiv dataset).
	for _, q := range []string{"https://" + link, "arXiv:2305.14314", "arxiv 2305.14314", "arxiv: 2305.14314v2", "doi:10.1145/3442188.3445922", "DOI 10.1145/3442188.3445922."} {
		_, err := ix.Search(t.Context(), Request{Text: q})
		if KindOf(err) != Invalid || !strings.Contains(Message(err), "no paper here has the link") {
			t.Errorf("%q alone: %v, want a message that no paper here has it", q, err)
		}
	}
	// A code link an abstract gives is searched for, beside words or alone.
	for _, q := range []string{"https://github.com/example/qlora", "QLoRA github.com/example/qlora"} {
		res, err := ix.Search(t.Context(), Request{Text: q})
		if err != nil {
			t.Errorf("Search(%q): %v", q, err)
			continue
		}
		if len(res.Results) == 0 || res.Results[0].ID != "qlor0001" || len(res.Missing) > 0 {
			t.Errorf("Search(%q): %v, missing %q; want qlor0001, nothing missing", q, ids(res.Results), res.Missing)
		}
	}
}

// A paper listed by its title alone (a scrape's row, a benchmark document
// with no text) is found by its title: first for its title's words, as a
// phrase, or asked as a question, with no snippet or answer to show; and
// papers like it are those like its title.
func TestTitleOnlyPaperFoundByItsTitle(t *testing.T) {
	_, c := seedIndex(t)
	title := "Tardigrade cryptobiosis survives hard vacuum"
	p := Paper{ID: "title001", Title: title, Headline: title, Authors: []string{"Ada Lovelace"}, CodeURLs: []string{}}
	ix := openT(t, &Corpus{Papers: append(slices.Clone(c.Papers), p)}, Options{})
	for _, q := range []string{"tardigrade cryptobiosis", `"hard vacuum"`, "which paper shows tardigrades survive a hard vacuum?", title} {
		res, err := ix.Search(t.Context(), Request{Text: q})
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		if res.NoMatch || len(res.Results) == 0 || res.Results[0].ID != p.ID {
			t.Errorf("%q: no match %v, results %v; want %s first", q, res.NoMatch, ids(res.Results), p.ID)
			continue
		}
		if r := res.Results[0]; r.Answer != "" || len(r.Snippet) != 0 || len(r.Matched) == 0 {
			t.Errorf("%q: answer %q, snippet %v, matched %q; want the matched words alone", q, r.Answer, r.Snippet, r.Matched)
		}
	}
	if _, err := ix.Similar(t.Context(), p.ID, 3); err != nil {
		t.Errorf("papers like a title-only paper: %v", err)
	}
}
