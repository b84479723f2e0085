package search

import (
	"context"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// search runs q over the seeds and fails the test on error.
func search(t *testing.T, q string, limit int) *Results {
	t.Helper()
	ix, _ := seedIndex(t)
	res, err := ix.Search(context.Background(), Request{Text: q, Limit: limit})
	if err != nil {
		t.Fatalf("Search(%q): %v", q, err)
	}
	return res
}

func lower(ss ...string) string { return strings.ToLower(strings.Join(ss, " ")) }

func TestSearchFilters(t *testing.T) {
	tests := []struct {
		name, q string
		min     int // at least this many results
		each    func(r Result) bool
	}{
		{"title", "title:transformer", 2, func(r Result) bool { return strings.Contains(lower(r.Title), "transformer") }},
		{"title phrase", `title:"flow matching"`, 3, func(r Result) bool { return strings.Contains(lower(r.Title), "flow matching") }},
		{"author surname", "author:jaakkola", 1, func(r Result) bool { return slices.Contains(r.Authors, "Tommi Jaakkola") }},
		{"author full name", `author:"Tommi Jaakkola"`, 1, func(r Result) bool { return slices.Contains(r.Authors, "Tommi Jaakkola") }},
		{"author folded accents", "author:sipka", 1, func(r Result) bool { return strings.Contains(lower(r.Authors...), "šípka") }},
		{"venue", "venue:icml graphs", 3, func(r Result) bool { return strings.Contains(lower(r.Venue), "icml") }},
		{"year", "year:2025 graphs", 3, func(r Result) bool { return r.Year == 2025 }},
		{"year range", "year:2024..2026 graphs", 3, func(r Result) bool { return r.Year >= 2024 && r.Year <= 2026 }},
		{"has code", "has:code graph", 3, func(r Result) bool { return r.HasCode() }},
		{"has no code", "-has:code graph", 3, func(r Result) bool { return !r.HasCode() }},
		{"exclude word", "diffusion -protein", 2, func(r Result) bool { return !strings.Contains(lower(r.Title, r.Abstract), "protein") }},
		{"exclude phrase", `generative -"flow matching"`, 3, func(r Result) bool { return !strings.Contains(lower(r.Title, r.Abstract), "flow matching") }},
		{"exclude acronym and long form", "cache -KV", 0, func(r Result) bool {
			return !strings.Contains(lower(r.Title, r.Abstract), "kv") && !strings.Contains(lower(r.Title, r.Abstract), "key-value")
		}},
		{"phrase", `"flow matching"`, 3, func(r Result) bool { return strings.Contains(lower(r.Title, r.Abstract), "flow matching") }},
		{"filters only", "title:attention has:code", 0, func(r Result) bool { return strings.Contains(lower(r.Title), "attention") && r.HasCode() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := search(t, tt.q, 20)
			if len(res.Results) < tt.min {
				t.Fatalf("%d results, want at least %d", len(res.Results), tt.min)
			}
			for _, r := range res.Results {
				if !tt.each(r) {
					t.Errorf("result %q (%s) does not satisfy %s", r.Title, r.ID, tt.q)
				}
			}
		})
	}
}

func TestSearchYearOutsideCorpus(t *testing.T) {
	res := search(t, "graphs year:<=2020", 5)
	if !res.NoMatch || len(res.Results) != 0 || res.Total != 0 {
		t.Errorf("year:<=2020 over 2025 seeds: no_match=%v, %d results", res.NoMatch, len(res.Results))
	}
}

func TestSearchInvalid(t *testing.T) {
	ix, _ := seedIndex(t)
	ctx := context.Background()
	for _, r := range []Request{
		{Text: `"unclosed`},
		{Text: "year:abc"},
		{Text: "title:"},
		{Text: "-only -exclusions"},
		{Text: "the of and which paper"},
		{Text: "🤖 !!"},
		{Text: "title:the"},
		{Text: "graphs", Limit: -1},
		{Text: "graphs", Limit: maxLimit + 1},
		{Text: "graphs", Offset: -3},
	} {
		_, err := ix.Search(ctx, r)
		if KindOf(err) != Invalid || Message(err) == "" {
			t.Errorf("Search(%+v) = %v, want a friendly invalid error", r, err)
		}
		if r.Text == "🤖 !!" && !strings.Contains(Message(err), "no words to search for") {
			t.Errorf("Search(%q): %q, want it to say there are no words", r.Text, Message(err))
		}
	}
}

func TestSearchResultFields(t *testing.T) {
	res := search(t, "which paper rediscovers the Kramers-Wannier duality?", 3)
	if res.Query == "" || res.Total == 0 || len(res.Results) == 0 {
		t.Fatalf("results %+v", res)
	}
	r := res.Results[0]
	if !slices.Equal(r.Matched, []string{"rediscovers", "Kramers", "Wannier", "duality"}) {
		t.Errorf("matched %q", r.Matched)
	}
	marked := r.Snippet.Marked("[", "]")
	for _, w := range []string{"[Kramers]", "[Wannier]", "[duality]", "[rediscover]"} {
		if !strings.Contains(marked, w) {
			t.Errorf("snippet %q does not mark %s", marked, w)
		}
	}
	if !strings.Contains(r.Abstract, r.Answer) || r.Answer == "" {
		t.Errorf("answer %q is not a sentence of the abstract", r.Answer)
	}
	if r.Score <= 0 || r.Score > 1 {
		t.Errorf("score %v outside (0, 1]", r.Score)
	}
	for i := 1; i < len(res.Results); i++ {
		if res.Results[i].Score > res.Results[i-1].Score {
			t.Errorf("scores not descending: %v", res.Results)
		}
	}
	if kw := search(t, "duality", 1).Results[0]; kw.Answer != "" {
		t.Errorf("a one-word keyword query got an answer: %q", kw.Answer)
	}
}

func TestSearchPaging(t *testing.T) {
	all := search(t, "generative models", 8)
	ix, _ := seedIndex(t)
	var paged []string
	for off := 0; off < 8; off += 3 {
		res, err := ix.Search(context.Background(), Request{Text: "generative models", Limit: 3, Offset: off})
		if err != nil {
			t.Fatal(err)
		}
		if res.Offset != off {
			t.Errorf("offset %d, want %d", res.Offset, off)
		}
		for _, r := range res.Results {
			paged = append(paged, r.ID)
		}
	}
	var want []string
	for _, r := range all.Results {
		want = append(want, r.ID)
	}
	if !slices.Equal(paged[:8], want) {
		t.Errorf("pages %q, want %q", paged, want)
	}
	if res := search(t, "generative models", 0); len(res.Results) != defaultLimit {
		t.Errorf("default limit gave %d results", len(res.Results))
	}
}

func TestGetAndStats(t *testing.T) {
	ix, c := seedIndex(t)
	want := c.Papers[7]
	for _, id := range []string{want.ID, strings.ToUpper(want.ID), " " + want.ID + " "} {
		got, err := ix.Get(id)
		if err != nil || got.ID != want.ID || got.Abstract != want.Abstract {
			t.Errorf("Get(%q) = %q, %v", id, got.ID, err)
		}
	}
	if _, err := ix.Get("nope"); KindOf(err) != NotFound || !strings.Contains(Message(err), "nope") {
		t.Errorf("Get(nope) = %v, want NotFound naming the ID", err)
	}
	st := ix.Stats()
	if st.Papers != len(c.Papers) || !slices.Equal(st.Venues, []string{"ICML 2025"}) {
		t.Errorf("stats %+v", st)
	}
}

func TestSimilar(t *testing.T) {
	ix, c := seedIndex(t)
	ctx := context.Background()
	byTitle := func(prefix string) Paper {
		for _, p := range c.Papers {
			if strings.HasPrefix(p.Title, prefix) {
				return p
			}
		}
		t.Fatalf("no seed titled %q", prefix)
		return Paper{}
	}
	mlip := byTitle("Learning Smooth and Expressive Interatomic")
	res, err := ix.Similar(ctx, mlip.ID, 3)
	if err != nil {
		t.Fatal(err)
	}
	if res.NoMatch || len(res.Results) == 0 {
		t.Fatalf("similar: %+v", res)
	}
	for _, r := range res.Results {
		if r.ID == mlip.ID {
			t.Error("Similar returned the paper itself")
		}
	}
	if got := res.Results[0].Title; !strings.HasPrefix(got, "PHYSICS-INFORMED WEAKLY SUPERVISED") {
		t.Errorf("most similar to %q is %q, want the other MLIP paper", mlip.Title, got)
	}
	if _, err := ix.Similar(ctx, "nope", 3); KindOf(err) != NotFound {
		t.Errorf("Similar(nope) = %v, want NotFound", err)
	}

	lacache := byTitle("LaCache")
	res, err = ix.SimilarText(ctx, lacache.Abstract, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) == 0 || res.Results[0].ID != lacache.ID || res.NoMatch {
		t.Errorf("SimilarText(LaCache abstract) first %v, no_match %v", res.Results, res.NoMatch)
	}
	res, err = ix.SimilarText(ctx, "Knead the sourdough, let the bread rise overnight and bake it at 250 degrees with steam for a crisp crust.", 3)
	if err != nil {
		t.Fatal(err)
	}
	if !res.NoMatch {
		t.Errorf("a bread recipe is similar to %q", res.Results[0].Title)
	}
	for _, text := range []string{"", "   ", strings.Repeat("x", maxSimilarText+1)} {
		if _, err := ix.SimilarText(ctx, text, 3); KindOf(err) != Invalid {
			t.Errorf("SimilarText(%d chars) = %v, want invalid", len(text), err)
		}
	}
}

// A conversation (a mention, a DM) gets an answer sentence even for one
// word; a search of one word gets a snippet.
func TestAnswerOnRequest(t *testing.T) {
	ix, _ := seedIndex(t)
	for _, tt := range []struct {
		req  Request
		want bool
	}{
		{Request{Text: "watermark"}, false},
		{Request{Text: "watermark", Answer: true}, true},
		{Request{Text: "is there a watermark that can embed a user ID in LLM-generated text?"}, true},
	} {
		res, err := ix.Search(context.Background(), tt.req)
		if err != nil {
			t.Fatal(err)
		}
		if res.NoMatch || len(res.Results) == 0 {
			t.Fatalf("%+v: no match", tt.req)
		}
		if got := res.Results[0].Answer != ""; got != tt.want {
			t.Errorf("%+v: answer %q, want one: %v", tt.req, res.Results[0].Answer, tt.want)
		}
	}
}

// "Why this matched" names an association in the paper's own words.
func TestMatchedNamesAssociations(t *testing.T) {
	ix, _ := seedIndex(t)
	res, err := ix.Search(context.Background(), Request{Text: "transfomer"})
	if err != nil || len(res.Results) == 0 {
		t.Fatalf("%v, %+v", err, res)
	}
	m := res.Results[0].Matched
	if len(m) != 1 || !strings.HasPrefix(strings.ToLower(m[0]), "transfomer (transformer") {
		t.Errorf("matched %q, want the typo with the paper's word", m)
	}
}

// A lone word the corpus lacks, matched only by a two-letter typo fix, is no
// topic: "watermark" must not answer with the Smith-Waterman paper. A
// one-letter slip still finds its paper.
func TestLoneTwoEditFixIsNoTopic(t *testing.T) {
	lines := []string{
		`{"title": "Identification of common molecular subsequences", "abstract": "The Smith-Waterman algorithm finds local alignments of protein sequences by dynamic programming over a scoring matrix with affine gap penalties.", "authors": ["Temple Smith", "Michael Waterman"]}`,
		`{"title": "Fast database search for similar sequences", "abstract": "Heuristic seeds make sequence alignment against large protein databases fast while keeping the sensitivity of exhaustive dynamic programming."}`,
		`{"title": "Clinical outcomes of early mobilisation", "abstract": "Patients who walked within a day of surgery recovered faster and left hospital sooner than those kept in bed for three days."}`,
	}
	fsys := fstest.MapFS{"papers.jsonl": {Data: []byte(strings.Join(lines, "\n"))}}
	c, err := LoadFS(fsys, "*.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	ix, err := Open(context.Background(), c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	res, err := ix.Search(context.Background(), Request{Text: "watermark"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.NoMatch {
		t.Errorf(`"watermark" answered with %q (confidence %.2f); want nothing relevant`, res.Results[0].Title, res.Confidence)
	}
	res, err = ix.Search(context.Background(), Request{Text: "sequnce"})
	if err != nil {
		t.Fatal(err)
	}
	if res.NoMatch || len(res.Results) == 0 {
		t.Errorf(`"sequnce" (one slip from sequence) refused`)
	}
}

// TestRealWordsAreNoTypos: a word of general English that no paper has is
// looked for as typed, not "corrected" into a corpus word one or two letters
// away; misspellings still are.
func TestRealWordsAreNoTypos(t *testing.T) {
	st := seedState(t)
	fixes := func(word string) []string {
		var out []string
		for _, g := range groupsOf(t, st, word) {
			for _, a := range g.alts {
				if a.kind == altFuzzy {
					out = append(out, a.terms...)
				}
			}
		}
		return out
	}
	for _, w := range []string{"medieval", "mortality", "stroke", "market"} {
		if f := fixes(w); len(f) > 0 {
			t.Errorf("%q corrected to %v; it is an English word, not a typo", w, f)
		}
	}
	for _, w := range []string{"transfomer", "spikng"} {
		if len(fixes(w)) == 0 {
			t.Errorf("%q: no typo correction", w)
		}
	}
	// The list ranks "crossword", not every plural: "crosswords" is English
	// too, not a typo of a corpus's "crossroad".
	st2 := liveState(t, papersIndex(t, []Paper{{ID: "x", Title: "Agents at a crossroad", Abstract: "Agents meet at a crossroad and must agree."}}))
	if f := altsOfKind(t, st2, "cryptic crosswords", altFuzzy); len(f) > 0 {
		t.Errorf("corrected %q; an English plural is no typo", f)
	}
}
