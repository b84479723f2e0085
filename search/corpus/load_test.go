package corpus

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

const corporaDir = "testdata/corpora"

// paperWith returns the paper whose Title (or, if want is not a title,
// Headline) is want.
func paperWith(t *testing.T, c *Corpus, want string) Paper {
	t.Helper()
	for _, p := range c.Papers {
		if p.Title == want || (p.Title == "" && p.Headline == want) {
			return p
		}
	}
	var have []string
	for _, p := range c.Papers {
		have = append(have, p.Headline)
	}
	t.Fatalf("no paper titled %q; have %q", want, have)
	return Paper{}
}

func hasProblem(c *Corpus, parts ...string) bool {
	for _, p := range c.Problems {
		ok := true
		for _, part := range parts {
			ok = ok && strings.Contains(p, part)
		}
		if ok {
			return true
		}
	}
	return false
}

func TestLoadFormats(t *testing.T) {
	tests := []struct {
		name                        string
		patterns                    []string
		papers, skipped, duplicates int
		problems                    [][]string // each: substrings of one problem
		check                       func(t *testing.T, c *Corpus)
	}{
		{
			name:     "text with metadata sidecar",
			patterns: []string{"text/*.txt"},
			papers:   4, duplicates: 1,
			problems: [][]string{{"metadata.tsv:4", "paragraph number"}, {"metadata.tsv:6", "b.txt has no paragraph 9"}},
			check: func(t *testing.T, c *Corpus) {
				p := paperWith(t, c, "FooNet: A Tiny Network")
				if want := []string{"Ada Lovelace", "Alan Turing"}; !slices.Equal(p.Authors, want) {
					t.Errorf("authors = %q, want %q", p.Authors, want)
				}
				if p.Venue != "NeurIPS 2023" || p.Year != 2023 || p.URL != "https://example.org/foonet" {
					t.Errorf("venue, year, url = %q, %d, %q", p.Venue, p.Year, p.URL)
				}
				if !strings.Contains(p.Abstract, "It has bold claims and k-hop reach.") {
					t.Errorf("abstract not cleaned: %q", p.Abstract)
				}
				if want := []string{"https://github.com/example/foonet"}; !slices.Equal(p.CodeURLs, want) {
					t.Errorf("code urls = %q, want %q", p.CodeURLs, want)
				}
				untitled := paperWith(t, c, "This abstract spans two lines and has no metadata row, so its headline comes from the text")
				if untitled.Source != filepath.Join(corporaDir, "text/a.txt")+":5" {
					t.Errorf("source = %q, want a.txt:5", untitled.Source)
				}
				p = paperWith(t, c, "Bar Graph Learning")
				if !slices.Equal(p.CodeURLs, []string{"https://bgl.example.org/"}) || !strings.Contains(p.Abstract, "See https://bgl.example.org/.") {
					t.Errorf("\\url not extracted: %q %q", p.CodeURLs, p.Abstract)
				}
				paperWith(t, c, "Zebra Stripes")
			},
		},
		{
			name:     "JSON Lines, arXiv metadata export",
			patterns: []string{"arxiv/arxiv_sample.jsonl"},
			papers:   2,
			check: func(t *testing.T, c *Corpus) {
				p := paperWith(t, c, "LoRA: Low-Rank Adaptation of Large Language Models")
				if p.URL != "https://arxiv.org/abs/2106.09685" || p.Venue != "arXiv" || p.Year != 2021 {
					t.Errorf("url, venue, year = %q, %q, %d; want the arXiv page, arXiv, 2021 (from the ID)", p.URL, p.Venue, p.Year)
				}
				if want := []string{"https://github.com/microsoft/LoRA"}; !slices.Equal(p.CodeURLs, want) {
					t.Errorf("code urls = %q", p.CodeURLs)
				}
				if p = paperWith(t, c, "Attention Is All You Need"); len(p.Authors) != 4 || p.Authors[3] != "Jakob Uszkoreit" {
					t.Errorf("authors %q: the final \"and\" must split too", p.Authors)
				}
			},
		},
		{
			name:     "JSON array, Paper Copilot style",
			patterns: []string{"json/nips2018_sample.json"},
			papers:   4, skipped: 2, duplicates: 1,
			problems: [][]string{
				{"nips2018_sample.json#2", "A loss framework for calibrated anomaly detection", "no abstract; kept"},
				{"nips2018_sample.json#4", "not a JSON object"},
				{"nips2018_sample.json#7", "no title or abstract field"},
			},
			check: func(t *testing.T, c *Corpus) {
				p := paperWith(t, c, "ℓ₁-regression with Heavy-tailed Distributions")
				if p.Venue != "NeurIPS 2018" || p.Year != 2018 {
					t.Errorf("venue, year = %q, %d, want NeurIPS 2018 from the file name", p.Venue, p.Year)
				}
				if want := []string{"Lijun Zhang", "Zhi-Hua Zhou"}; !slices.Equal(p.Authors, want) {
					t.Errorf("authors = %q, want %q", p.Authors, want)
				}
				if p.URL != "https://nips.cc/virtual/2018/poster/1" {
					t.Errorf("url = %q, want the site page, not the pdf", p.URL)
				}
				if !strings.Contains(p.Abstract, "O(√(d/n))") || !strings.Contains(p.Abstract, "ℓ₁-regression") {
					t.Errorf("TeX not cleaned: %q", p.Abstract)
				}
				// A listing without an abstract is a paper all the same.
				if p = paperWith(t, c, "A loss framework for calibrated anomaly detection"); p.Abstract != "" || p.URL != "https://nips.cc/virtual/2018/poster/2" {
					t.Errorf("title-only paper: abstract %q, url %q", p.Abstract, p.URL)
				}
				p = paperWith(t, c, "Numbers Everywhere")
				if p.Year != 2019 || !slices.Equal(p.Authors, []string{"Ann One", "Bob Two"}) || p.URL != "https://example.org/3.pdf" {
					t.Errorf("numeric year, author list, pdf url: %d %q %q", p.Year, p.Authors, p.URL)
				}
				if !slices.Equal(p.Keywords, []string{"numbers", "years"}) {
					t.Errorf("keywords = %q", p.Keywords)
				}
				p = paperWith(t, c, "ZetaCache: a cache for zeta functions that makes them fast to evaluate")
				if p.Venue != "ICML 2024" || p.Year != 2024 || !slices.Equal(p.CodeURLs, []string{"https://zeta.example.org"}) {
					t.Errorf("venue %q, year %d, code %q", p.Venue, p.Year, p.CodeURLs)
				}
			},
		},
		{
			name:     "JSON Lines with a malformed line",
			patterns: []string{"json/*.jsonl"},
			papers:   2, skipped: 2,
			problems: [][]string{{"papers.jsonl:2", "malformed JSON"}, {"papers.jsonl:5", "not a JSON object"}},
			check: func(t *testing.T, c *Corpus) {
				p := paperWith(t, c, "Lines One")
				if p.Year != 2021 || p.URL != "https://openreview.net/forum?id=abc" || !slices.Equal(p.Authors, []string{"Ann One", "Bob Two"}) {
					t.Errorf("string year, id url, comma authors: %d %q %q", p.Year, p.URL, p.Authors)
				}
				p = paperWith(t, c, "Lines Two")
				if !slices.Equal(p.Authors, []string{"Cy Three"}) || p.Venue != "ICLR" || p.Year != 2022 {
					t.Errorf("author objects, venue, year: %q %q %d", p.Authors, p.Venue, p.Year)
				}
				if !strings.Contains(p.Abstract, "mentions code (https://github.com/x/y) in Markdown") || !slices.Equal(p.CodeURLs, []string{"https://github.com/x/y"}) {
					t.Errorf("markdown link: %q %q", p.Abstract, p.CodeURLs)
				}
			},
		},
		{
			name:     "tab- and comma-separated",
			patterns: []string{"tsv/*"},
			papers:   7, skipped: 1,
			problems: [][]string{{"ICML_cc_2024_sample.csv:3", "has 5 tab-separated columns, want 11"}, {"header.tsv:3", `year "soon"`}},
			check: func(t *testing.T, c *Corpus) {
				p := paperWith(t, c, "On Discrete Prompt Optimization for K Models")
				if p.URL != "https://openreview.net/forum?id=AAA" || p.Venue != "ICML 2024" || p.Year != 2024 {
					t.Errorf("11 columns: url %q venue %q year %d", p.URL, p.Venue, p.Year)
				}
				if !strings.Contains(p.Abstract, `We introduce "Shortcut Text Gradient" --- an effective`) || !strings.Contains(p.Abstract, `The "quoted" word stays.`) {
					t.Errorf("quotes: %q", p.Abstract)
				}
				if !slices.Equal(p.Authors, []string{"Ruochen Wang", "Ting Liu"}) || !slices.Equal(p.CodeURLs, []string{"https://github.com/a/b"}) {
					t.Errorf("authors %q code %q", p.Authors, p.CodeURLs)
				}
				p = paperWith(t, c, "A Second Paper")
				if !strings.Contains(p.Abstract, `with a "stray quote`) {
					t.Errorf("bare quote lost: %q", p.Abstract)
				}
				p = paperWith(t, c, "Breaking Borders: Multilingual Prompt Tuning")
				if p.URL != "https://openreview.net/pdf/ccc.pdf" || p.Venue != "ICLR 2024" || !slices.Equal(p.Keywords, []string{"Federated Learning", "NLP"}) {
					t.Errorf("9 columns: url %q venue %q keywords %q", p.URL, p.Venue, p.Keywords)
				}
				if !strings.Contains(p.Abstract, "cornerstone. To overcome") {
					t.Errorf("sentence join not fixed: %q", p.Abstract)
				}
				p = paperWith(t, c, "Header Row Paper")
				if p.Year != 2020 || p.URL != "https://example.org/h1" || !slices.Equal(p.Authors, []string{"Ann One", "Bob Two"}) {
					t.Errorf("header row: %d %q %q", p.Year, p.URL, p.Authors)
				}
				p = paperWith(t, c, "Comma, Quoted")
				if p.Year != 2018 || !strings.Contains(p.Abstract, `with "quotes" and commas`) {
					t.Errorf("csv: %d %q", p.Year, p.Abstract)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var patterns []string
			for _, p := range tt.patterns {
				patterns = append(patterns, filepath.Join(corporaDir, p))
			}
			c, err := LoadFiles(patterns)
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Papers) != tt.papers || c.Skipped != tt.skipped || c.Duplicates != tt.duplicates {
				t.Errorf("papers, skipped, duplicates = %d, %d, %d; want %d, %d, %d\nproblems: %q",
					len(c.Papers), c.Skipped, c.Duplicates, tt.papers, tt.skipped, tt.duplicates, c.Problems)
			}
			for _, want := range tt.problems {
				if !hasProblem(c, want...) {
					t.Errorf("no problem mentions %q; have %q", want, c.Problems)
				}
			}
			checkPapers(t, c)
			tt.check(t, c)
		})
	}
}

// checkPapers asserts what holds for every loaded paper.
func checkPapers(t *testing.T, c *Corpus) {
	t.Helper()
	ids := map[string]bool{}
	for _, p := range c.Papers {
		if len(p.ID) == 0 || len(p.ID) > IDLen || strings.ContainsAny(p.ID, "ilou") || strings.ToLower(p.ID) != p.ID {
			t.Errorf("bad ID %q for %q", p.ID, p.Headline)
		}
		if ids[p.ID] {
			t.Errorf("ID %q used twice", p.ID)
		}
		ids[p.ID] = true
		if p.Abstract == "" && p.Title == "" || p.Headline == "" || len([]rune(p.Headline)) > MaxHeadline {
			t.Errorf("paper %s: abstract %d bytes, headline %q", p.ID, len(p.Abstract), p.Headline)
		}
		if p.Title != "" && !strings.HasPrefix(p.Title, strings.TrimSuffix(p.Headline, "…")) {
			t.Errorf("headline %q is not the title %q", p.Headline, p.Title)
		}
		if p.Source == "" {
			t.Errorf("paper %s has no source", p.ID)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name     string
		patterns []string
		want     []string // substrings of the message
	}{
		{"no patterns", []string{" ", ""}, []string{"no corpus files given"}},
		{"missing file", []string{filepath.Join(corporaDir, "nope.json")}, []string{"nope.json", "does not exist"}},
		{"glob matching nothing", []string{filepath.Join(corporaDir, "*.parquet")}, []string{"*.parquet", "matches no file"}},
		{"directory", []string{corporaDir}, []string{"is a directory", "*.json"}},
		{"only the sidecar", []string{filepath.Join(corporaDir, "text/metadata.tsv")}, []string{"metadata.tsv"}},
		{"syntax error", []string{filepath.Join(corporaDir, "bad/broken.json")}, []string{"broken.json: line 3, column 22 (record 2)", "malformed JSON"}},
		{"truncated JSON", []string{filepath.Join(corporaDir, "bad/truncated.json")}, []string{"truncated.json", "(record 2)", "ends too early"}},
		{"empty file", []string{filepath.Join(corporaDir, "bad/empty.txt")}, []string{"empty.txt", "is empty"}},
		{"unknown format", []string{filepath.Join(corporaDir, "bad/notes.md")}, []string{"notes.md", "unknown format"}},
		{"binary file", []string{filepath.Join(corporaDir, "bad/blob.bin")}, []string{"blob.bin", "not a text file"}},
		{"unknown TSV layout", []string{filepath.Join(corporaDir, "bad/cols.tsv")}, []string{"cols.tsv: line 1", "header row"}},
		{"text that is not prose", []string{filepath.Join(corporaDir, "bad/config.txt")}, []string{"config.txt", "no usable paper", "does not read like an abstract"}},
		{"no usable record", []string{filepath.Join(corporaDir, "bad/allbad.jsonl")}, []string{"allbad.jsonl", "no usable paper", "allbad.jsonl:1"}},
		{"one bad file fails the load", []string{filepath.Join(corporaDir, "json/*.jsonl"), filepath.Join(corporaDir, "bad/broken.json")}, []string{"broken.json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := LoadFiles(tt.patterns)
			if err == nil {
				t.Fatalf("loaded %d papers, want an error", len(c.Papers))
			}
			if kindOf(err) != Invalid {
				t.Errorf("kind = %v, want invalid: %v", kindOf(err), err)
			}
			for _, w := range tt.want {
				if !strings.Contains(message(err), w) {
					t.Errorf("message %q does not mention %q", message(err), w)
				}
			}
		})
	}
}

// failingFS is an fs.FS whose file "locked.json" exists but cannot be read.
type failingFS struct{ fstest.MapFS }

func (f failingFS) ReadFile(name string) ([]byte, error) {
	if name == "locked.json" {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrPermission}
	}
	return f.MapFS.ReadFile(name)
}

func TestLoadFSErrors(t *testing.T) {
	fsys := failingFS{fstest.MapFS{
		"locked.json": {Data: []byte("[]")},
		"ok.txt":      {Data: []byte("Header 2020\n\nAn abstract that is long enough to be an abstract here.\n")},
	}}
	_, err := LoadFS(fsys, "*.json")
	if kindOf(err) != Invalid || !strings.Contains(message(err), "cannot read corpus file locked.json") || !errors.Is(err, fs.ErrPermission) {
		t.Errorf("unreadable file: got %v", err)
	}
	_, err = LoadFS(fsys, "[")
	if kindOf(err) != Invalid || !strings.Contains(message(err), "bad corpus pattern [") {
		t.Errorf("bad pattern: got %v", err)
	}
	c, err := LoadFS(fsys, "ok.txt")
	if err != nil || len(c.Papers) != 1 || c.Papers[0].Venue != "Header 2020" || c.Papers[0].Year != 2020 {
		t.Errorf("LoadFS(ok.txt) = %+v, %v", c, err)
	}
}

// A placeholder where a title goes ("Summary", "Corresponding author:")
// names no paper: the different abstracts under it are different papers,
// each kept. A real title read twice is still one paper.
func TestPlaceholderTitlesAreNoIdentity(t *testing.T) {
	file := filepath.Join(t.TempDir(), "corpus.jsonl")
	body := `{"_id": "1", "title": "Summary", "text": "Steroid receptor RNA activator augments transactivation by nuclear receptors in breast cancer cells."}
{"_id": "2", "title": "Summary", "text": "Glomerular basement membrane and podocalyxin are essential for podocyte morphology in the kidney."}
{"_id": "3", "title": "Corresponding author:", "text": "Methods of cytogenetic analysis evolved and became part of routine laboratory testing over the years."}
{"_id": "4", "title": "Corresponding author:", "text": "Introns are spliced out of protein-coding messenger RNAs by the spliceosome, a massive complex."}
{"_id": "5", "title": "Attention Sinks in Streaming Language Models", "text": "Keeping the first tokens lets window attention stream text of any length without retraining."}
{"_id": "6", "title": "Attention sinks in streaming language models.", "text": "Keeping the first tokens, attention sinks, lets window attention stream text of any length."}
`
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := LoadFiles([]string{file})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Papers) != 5 || c.Duplicates != 1 {
		t.Errorf("papers, duplicates = %d, %d; want 5 (four under placeholders, one streaming paper), 1", len(c.Papers), c.Duplicates)
	}
}

// A listing with a title and no abstract is a paper, found by its title;
// so is one whose abstract is markup alone. A record with neither title
// nor abstract is no paper. Each is reported.
func TestTitleOnlyRecordsAreKept(t *testing.T) {
	files := fstest.MapFS{"list.jsonl": {Data: []byte(`{"title": "Calibrated anomaly detection losses", "url": "https://example.org/1"}
{"title": "Markup is all it has", "abstract": "$$ $$"}
{"title": "  ", "abstract": ""}
{"title": "A paper with words", "abstract": "We study losses for anomaly detection and show which ones are calibrated."}
`)}}
	c, err := LoadFS(files, "*.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Papers) != 3 || c.Skipped != 1 {
		t.Fatalf("papers, skipped = %d, %d; want 3, 1; problems %q", len(c.Papers), c.Skipped, c.Problems)
	}
	for _, title := range []string{"Calibrated anomaly detection losses", "Markup is all it has"} {
		if p := paperWith(t, c, title); p.Abstract != "" || p.Headline != title {
			t.Errorf("%q: abstract %q, headline %q; want no abstract, the title as headline", title, p.Abstract, p.Headline)
		}
		if !hasProblem(c, title, "no abstract; kept") {
			t.Errorf("%q is not reported: %q", title, c.Problems)
		}
	}
	if !hasProblem(c, "list.jsonl:3", "neither title nor abstract") {
		t.Errorf("the empty record is not reported: %q", c.Problems)
	}
	checkPapers(t, c)
}

// A listing and the full record of one paper, in either order: the paper
// keeps its abstract.
func TestListingDoesNotHideTheFullRecord(t *testing.T) {
	listing := `{"title": "Calibrated anomaly detection losses", "url": "https://example.org/listing"}` + "\n"
	full := `{"title": "Calibrated Anomaly Detection Losses.", "abstract": "We study losses for anomaly detection and show which ones are calibrated."}` + "\n"
	for name, data := range map[string]string{"listing first": listing + full, "full record first": full + listing} {
		c, err := LoadFS(fstest.MapFS{"list.jsonl": {Data: []byte(data)}}, "*.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Papers) != 1 || c.Duplicates != 1 || c.Papers[0].Abstract == "" || hasProblem(c, "no abstract; kept") {
			t.Errorf("%s: %d papers, %d duplicates, first abstract %q, problems %q; want one paper with its abstract, the listing not reported kept",
				name, len(c.Papers), c.Duplicates, c.Papers[0].Abstract, c.Problems)
		}
	}
	// Past the listings it holds back, the loader keeps them: a full record
	// after them is their duplicate, and no paper is lost or kept twice.
	defer func(n int) { maxHeldListings = n }(maxHeldListings)
	maxHeldListings = 1
	c, err := LoadFS(fstest.MapFS{"list.jsonl": {Data: []byte(listing + full + `{"title": "Another listing alone"}` + "\n")}}, "*.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Papers) != 2 || c.Duplicates != 1 || !hasProblem(c, "Another listing alone", "no abstract; kept") {
		t.Errorf("held listings 1: %d papers, %d duplicates, problems %q; want 2 and 1", len(c.Papers), c.Duplicates, c.Problems)
	}
}
