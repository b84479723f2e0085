package corpus

import (
	"slices"
	"strings"
	"testing"
)

// TestLoadRealCorpora loads the three shared real corpora (skipped when they
// are not beside the clone): every paper with an abstract loads, the one
// record without an abstract is skipped and reported, nothing is dropped as
// a duplicate.
func TestLoadRealCorpora(t *testing.T) {
	skipWithoutCorpora(t)
	tests := []struct {
		file                 string
		papers, skipped      int
		title                string // one paper to check
		authors              int
		url, venue, abstract string
		year                 int
	}{
		{
			file: realCorpora[0], papers: 2610,
			title: "On Discrete Prompt Optimization for Diffusion Models", authors: 4,
			url: "https://openreview.net/forum?id=Fw4fBE2rqW", venue: "ICML 2024", year: 2024,
			abstract: `we introduce "Shortcut Text Gradient" --- an effective replacement`,
		},
		{
			file: realCorpora[1], papers: 2260,
			title: "Breaking Physical and Linguistic Borders: Multilingual Federated Prompt Tuning for Low-Resource Languages", authors: 7,
			url: "https://openreview.net/pdf/7b596a6a9b3782552c44ef4e37c727aeb8be3eb1.pdf", venue: "ICLR 2024", year: 2024,
			abstract: "benefiting from the advantages of LLMs. To overcome these challenges",
		},
		{
			file: realCorpora[2], papers: 1009, skipped: 0,
			title: "ℓ₁-regression with Heavy-tailed Distributions", authors: 2,
			url: "https://nips.cc/virtual/2018/poster/11127", venue: "NeurIPS 2018", year: 2018,
			abstract: "it enjoys an O(√(d/n)) excess risk, where d is the dimensionality",
		},
	}
	total := 0
	for _, tt := range tests {
		t.Run(tt.file[strings.LastIndexByte(tt.file, '/')+1:], func(t *testing.T) {
			c, err := LoadFiles([]string{tt.file})
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Papers) != tt.papers || c.Skipped != tt.skipped || c.Duplicates != 0 {
				t.Errorf("papers, skipped, duplicates = %d, %d, %d; want %d, %d, 0; problems %q",
					len(c.Papers), c.Skipped, c.Duplicates, tt.papers, tt.skipped, c.Problems)
			}
			total += len(c.Papers)
			checkPapers(t, c)
			p := paperWith(t, c, tt.title)
			if len(p.Authors) != tt.authors || p.URL != tt.url || p.Venue != tt.venue || p.Year != tt.year {
				t.Errorf("%q: authors %q, url %q, venue %q, year %d", p.Title, p.Authors, p.URL, p.Venue, p.Year)
			}
			if !strings.Contains(p.Abstract, tt.abstract) {
				t.Errorf("%q: abstract lacks %q:\n%s", p.Title, tt.abstract, p.Abstract)
			}
			for _, p := range c.Papers {
				if strings.Contains(p.Abstract, `\textbf`) || strings.Contains(p.Abstract, `\emph`) || strings.Contains(p.Title, "$") {
					t.Errorf("%s: markup left in %q / %q", p.Source, p.Title, p.Abstract)
				}
			}
		})
	}
	c, err := LoadFiles(realCorpora)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Papers) != 5879 || c.Skipped != 0 || c.Duplicates != 0 {
		t.Errorf("together: papers, skipped, duplicates = %d, %d, %d; want 5879, 0, 0", len(c.Papers), c.Skipped, c.Duplicates)
	}
	// Kept, to be found by its title, and reported.
	if !hasProblem(c, "nips2018.json#41", "A loss framework for calibrated anomaly detection", "no abstract; kept") {
		t.Errorf("the record without an abstract is not reported: %q", c.Problems)
	}
	if !hasProblem(c, "nips2018.json#37", "Part of", "looks truncated") {
		t.Errorf("the stub abstract is not reported: %q", c.Problems)
	}
	withCode := slices.IndexFunc(c.Papers, func(p Paper) bool {
		return slices.Contains(p.CodeURLs, "https://github.com/BaoWangMath/DNN-DataDependentActivation")
	})
	if withCode < 0 {
		t.Error("a code URL broken across lines was not rejoined")
	}
}
