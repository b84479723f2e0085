package corpus

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// TestLoadDetect covers format detection on in-memory files.
func TestLoadDetect(t *testing.T) {
	abstract := "An abstract with more than enough words to count as a real one."
	tests := []struct {
		name, file, data string
		papers           int
		err              string // substring of the error message, "" for success
	}{
		{"json wrapper object", "x.json", `{"count": 1, "papers": [{"title": "T", "abstract": "` + abstract + `"}]}`, 1, ""},
		{"single pretty-printed record", "x.json", "{\n  \"title\": \"T\",\n  \"abstract\": \"" + abstract + "\"\n}\n", 1, ""},
		{"json lines without extension", "x", `{"abstract": "` + abstract + `"}` + "\n" + `{"abstract": "Another ` + abstract + `"}`, 2, ""},
		{"byte order mark", "x.json", "\xef\xbb\xbf[{\"abstract\": \"" + abstract + "\"}]", 1, ""},
		{"json extension, not json", "x.json", "title,abstract\n", 0, "unknown format"},
		{"text with CRLF and no header", "x.txt", abstract + "\r\n\r\nSecond. " + abstract + "\r\n", 2, ""},
		{"text header only", "x.txt", "ICML 2025 Papers\n", 0, "no papers found"},
		{"trailing data after array", "x.json", `[{"abstract": "` + abstract + `"}] [1]`, 0, "line 1: unexpected data after"},
		{"json array of strings", "x.json", `["a", "b"]`, 0, "no usable paper"},
		{"csv without header", "x.csv", "a,b\nc,d\n", 0, "header row"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := LoadFS(fstest.MapFS{tt.file: {Data: []byte(tt.data)}}, tt.file)
			switch {
			case tt.err == "" && err != nil:
				t.Fatal(err)
			case tt.err != "" && (err == nil || kindOf(err) != Invalid || !strings.Contains(message(err), tt.err)):
				t.Fatalf("error %v, want Invalid mentioning %q", err, tt.err)
			case tt.err == "" && len(c.Papers) != tt.papers:
				t.Errorf("%d papers, want %d; problems %q", len(c.Papers), tt.papers, c.Problems)
			}
		})
	}
}

// TestProblemsCapped: a file with many bad records still loads its good
// ones, counts every skip, and lists a bounded number of problems.
func TestProblemsCapped(t *testing.T) {
	var b strings.Builder
	for i := range 80 {
		fmt.Fprintf(&b, "{\"title\": \"bad %d\"\n", i)
	}
	b.WriteString(`{"title": "Good", "abstract": "The one good record in this file, with enough words."}` + "\n")
	c, err := LoadFS(fstest.MapFS{"many.jsonl": {Data: []byte(b.String())}}, "many.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Papers) != 1 || c.Skipped != 80 || len(c.Problems) != maxProblems+1 {
		t.Fatalf("papers %d, skipped %d, problems %d; want 1, 80, %d", len(c.Papers), c.Skipped, len(c.Problems), maxProblems+1)
	}
	if last := c.Problems[maxProblems]; last != "... and 30 more problems not listed" {
		t.Errorf("last problem %q", last)
	}
	if !strings.HasPrefix(c.Problems[0], "many.jsonl:1: malformed JSON") {
		t.Errorf("first problem %q", c.Problems[0])
	}
}
