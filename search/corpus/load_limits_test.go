package corpus

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// writeCorpus writes content to a file named name in a new directory and
// returns its path.
func writeCorpus(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLoadBoundsOneRecord: a runaway abstract is cut at the limit with a
// problem naming its record, and its links are capped; the paper stays.
func TestLoadBoundsOneRecord(t *testing.T) {
	var huge strings.Builder
	for i := 0; huge.Len() < 200_000; i++ {
		fmt.Fprintf(&huge, "We release code at https://github.com/lab/repo%d and more words here. ", i)
	}
	normal := `{"title": "Normal", "abstract": "A normal abstract of a paper about sparse attention for long documents."}`
	tests := []struct {
		name        string
		lim         Limits
		wantMaxLen  int
		wantProblem string
		linksCapped bool // the kept text still has more links than the cap
	}{
		{"default limit", Limits{}, DefaultMaxAbstract, "kept the first", true},
		{"configured limit", Limits{MaxAbstract: 1000}, 1000, "kept the first", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := fmt.Sprintf(`{"title": "Runaway", "abstract": %q}`, huge.String())
			path := writeCorpus(t, "papers.jsonl", normal+"\n"+rec+"\n")
			c, err := LoadFilesLimited([]string{path}, tt.lim)
			if err != nil {
				t.Fatal(err)
			}
			p := paperWith(t, c, "Runaway")
			if n := utf8.RuneCountInString(p.Abstract); n > tt.wantMaxLen || n < tt.wantMaxLen/2 {
				t.Errorf("abstract has %d characters, want at most %d", n, tt.wantMaxLen)
			}
			if len(p.CodeURLs) > MaxCodeLinks || (tt.linksCapped && len(p.CodeURLs) != MaxCodeLinks) {
				t.Errorf("%d code links, want the cap %d", len(p.CodeURLs), MaxCodeLinks)
			}
			if tt.linksCapped && !hasProblem(c, "papers.jsonl:2", "code links") {
				t.Errorf("problems do not report the capped links: %q", c.Problems)
			}
			if !hasProblem(c, "papers.jsonl:2", tt.wantProblem) {
				t.Errorf("problems do not report the cut record: %q", c.Problems)
			}
			if c.Skipped != 0 || len(c.Papers) != 2 {
				t.Errorf("papers %d skipped %d, want 2 and 0: a cut paper is kept", len(c.Papers), c.Skipped)
			}
		})
	}
}

// TestLoadReportsWrongFieldTypes: a field of the wrong type is reported
// with file and record and ignored; the rest of the record loads.
func TestLoadReportsWrongFieldTypes(t *testing.T) {
	abs := `"abstract": "A paper about graph neural networks for molecules and their conformations."`
	tests := []struct {
		name    string
		record  string
		problem []string
		check   func(t *testing.T, p Paper)
	}{
		{"authors a number", `{"title": "A", "authors": 12345, ` + abs + `}`,
			[]string{"#2", `"authors" is a number (12345)`}, func(t *testing.T, p Paper) {
				if len(p.Authors) != 0 {
					t.Errorf("authors = %q, want none", p.Authors)
				}
			}},
		{"year not a number", `{"title": "A", "year": "abc", ` + abs + `}`,
			[]string{"#2", `"year" is a string ("abc")`, "a year"}, func(t *testing.T, p Paper) {
				if p.Year != 0 {
					t.Errorf("year = %d, want 0", p.Year)
				}
			}},
		{"title an object", `{"title": {"en": "A"}, ` + abs + `}`,
			[]string{"#2", `"title" is an object`}, nil},
		{"authors a boolean", `{"title": "A", "author": true, ` + abs + `}`,
			[]string{"#2", `"author" is a boolean`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			good := `{"title": "Good", "authors": ["Ada Lovelace"], "year": 2024, "abstract": "Sparse attention scales transformers to book-length inputs cheaply."}`
			path := writeCorpus(t, "export.json", "[\n"+good+",\n"+tt.record+"\n]")
			c, err := LoadFiles([]string{path})
			if err != nil {
				t.Fatal(err)
			}
			if !hasProblem(c, append([]string{"export.json"}, tt.problem...)...) {
				t.Fatalf("no problem %q in %q", tt.problem, c.Problems)
			}
			if len(c.Papers) != 2 {
				t.Fatalf("%d papers, want 2: a wrong field does not lose the paper", len(c.Papers))
			}
			if tt.check != nil {
				for _, p := range c.Papers {
					if p.Headline != "Good" {
						tt.check(t, p)
					}
				}
			}
		})
	}
}

// TestLoadSymlinkLoopSaysWhy: a corpus file that is a symbolic link loop is
// refused with a message that says so, named or matched by a glob.
func TestLoadSymlinkLoopSaysWhy(t *testing.T) {
	dir := t.TempDir()
	loop := filepath.Join(dir, "loop.json")
	if err := os.Symlink(loop, loop); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	for _, pattern := range []string{loop, filepath.Join(dir, "*.json")} {
		_, err := LoadFiles([]string{pattern})
		if err == nil || kindOf(err) != Invalid || !strings.Contains(message(err), "loop.json") ||
			!strings.Contains(message(err), "symbolic link loop") {
			t.Errorf("LoadFiles(%s) = %v, want a message naming loop.json as a symbolic link loop", pattern, err)
		}
	}
}
