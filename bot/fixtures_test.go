package bot

import (
	"strings"
	"sync"
	"testing"

	"github.com/paperbot/paperbot/search"
	"github.com/paperbot/paperbot/seeds"
)

var (
	seedOnce   sync.Once
	seedCorpus *search.Corpus
	seedErr    error
)

// seedPapers loads the embedded seed corpus once per test binary.
func seedPapers(t testing.TB) []search.Paper {
	t.Helper()
	seedOnce.Do(func() { seedCorpus, seedErr = search.LoadFS(seeds.FS, "*.txt") })
	if seedErr != nil {
		t.Fatalf("load seeds: %v", seedErr)
	}
	if len(seedCorpus.Papers) == 0 {
		t.Fatal("seed corpus is empty")
	}
	return seedCorpus.Papers
}

// fixedPaper is a stable, hand-written paper for golden files.
func fixedPaper() search.Paper {
	return search.Paper{
		ID:       "aay87f2q",
		Title:    "Symmetry-Driven Discovery of Dynamical Variables in Molecular Simulations",
		Headline: "Symmetry-Driven Discovery of Dynamical Variables in Molecular Simulations",
		Authors:  []string{"Jeet Mohapatra", "Nima Dehmamy", "Csaba Both", "Subhro Das", "Tommi Jaakkola"},
		Venue:    "ICML 2025",
		Year:     2025,
		URL:      "https://icml.cc/virtual/2025/poster/45068",
		CodeURLs: []string{"https://github.com/example/symmetry"},
		Abstract: "We introduce a novel approach for discovering effective degrees of freedom (DOF) in molecular dynamics simulations. " +
			"Our approach enables systematic exploration of conformational space. We apply our method to Alanine dipeptide and Chignolin, recovering their known important conformations.",
	}
}

func fixedResult() search.Result {
	return search.Result{
		Paper: fixedPaper(),
		Score: 1.5,
		Snippet: search.Snippet{
			{Text: "Our approach enables systematic exploration of "},
			{Text: "conformational", Mark: true},
			{Text: " space, recovering known important "},
			{Text: "conformations", Mark: true},
			{Text: "."},
		},
		Answer:  "We apply our method to Alanine dipeptide and Chignolin, recovering their known important conformations.",
		Matched: []string{"protein", "conformations"},
	}
}

// hostilePaper carries every kind of text that must not come out raw.
func hostilePaper() search.Paper {
	huge := strings.Repeat("<!channel> *bold* _it_ `code` <@U123> <http://evil.example|click> & more words ", 2000)
	return search.Paper{
		ID:       "h0st1le",
		Title:    "<!channel> *Urgent* & <@U123> <http://evil.example|click here> \u202eevil\u202c " + strings.Repeat("long ", 80),
		Headline: "<!here> headline",
		Authors:  []string{"<!here>", "A & B", "", "  Carl\nSagan  ", "<@UEVIL>", "E"},
		Venue:    "<script>alert(1)</script>",
		Year:     2025,
		URL:      "javascript:alert(1)",
		CodeURLs: []string{"ftp://example.com/x", "https://example.com/a|b>", "https://github.com/ok/repo"},
		Abstract: huge,
	}
}

func hostileResult() search.Result {
	return search.Result{
		Paper: hostilePaper(),
		Snippet: search.Snippet{
			{Text: "<!channel> before "},
			{Text: "*mark*ed`", Mark: true},
			{Text: "inside"},
			{Text: "<@U123>", Mark: true},
			{Text: " after <http://evil.example|x> " + strings.Repeat("filler ", 400)},
			{Text: "late", Mark: true},
		},
		Answer:  "<!channel> the answer is <http://evil.example|here> " + strings.Repeat("and more ", 300),
		Matched: []string{"<@U123>", "*x*", "", "a&b", "1", "2", "3", "4", "5", "6", "7", "8", "9"},
	}
}

// emptyResult has nothing but an ID.
func emptyResult() search.Result { return search.Result{Paper: search.Paper{ID: "e0000000"}} }

// unicodeResult has no title and right-to-left, CJK and emoji text.
func unicodeResult() search.Result {
	return search.Result{
		Paper: search.Paper{
			ID: "u1n1c0de", Headline: "学习 表示 🧬 — a headline from the abstract",
			Authors: []string{"Zoë Ångström", "李 雷", "محمد"}, Venue: "NeurIPS", Year: 2024,
			URL: "https://example.org/papers/ü?x=1&y=2", Abstract: "Zoë's 学习 abstract with émojis 🧬🧪.",
		},
		Snippet: search.Snippet{{Text: "Zoë's "}, {Text: "学习", Mark: true}, {Text: " abstract"}},
		Matched: []string{"学习"},
	}
}
