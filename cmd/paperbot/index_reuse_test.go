package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A start over unchanged corpus files reads none of them: the index holds
// every paper. Files are judged by size and modification time, so a file
// rewritten behind paperbot's back with both kept is (by design) not read;
// appending papers is applied to the index in place.
func TestIndexedStartReadsNoCorpus(t *testing.T) {
	clearEnv(t)
	corpus := filepath.Join(t.TempDir(), "papers.jsonl")
	t.Setenv("PAPERBOT_CORPUS", corpus)
	t.Setenv("PAPERBOT_DATA_DIR", t.TempDir())
	lines := jsonlCorpus(100)
	writeLines(t, corpus, lines, "")
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(corpus, old, old); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := runCmd(t, t.Context(), "index"); code != exitOK || !strings.Contains(out, "100 papers") {
		t.Fatalf("first index: exit %d %q %q", code, out, errOut)
	}

	// Same size and time, other words: only a read would see them.
	swapped := make([]string, len(lines))
	for i, l := range lines {
		swapped[i] = strings.ReplaceAll(l, "sparse attention", "dense  retrieval")
	}
	writeLines(t, corpus, swapped, "")
	if err := os.Chtimes(corpus, old, old); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCmd(t, t.Context(), "search", "sparse attention variant 7")
	if code != exitOK || !strings.Contains(out, "Study 7 of sparse attention") {
		t.Fatalf("search over the built index: exit %d %q %q", code, out, errOut)
	}

	// Appended papers: the file changed, the index takes the difference.
	writeLines(t, corpus, append(lines, `{"title": "Tardigrades in hard vacuum", "abstract": "Desiccated tardigrades revive after ten days of hard vacuum exposure.", "year": 2026}`), "")
	if code, out, errOut := runCmd(t, t.Context(), "index"); code != exitOK || !strings.Contains(out, "101 papers") {
		t.Fatalf("index after appending: exit %d %q %q", code, out, errOut)
	}
	code, out, errOut = runCmd(t, t.Context(), "search", "tardigrades vacuum")
	if code != exitOK || !strings.Contains(out, "Tardigrades in hard vacuum") {
		t.Fatalf("search for the appended paper: exit %d %q %q", code, out, errOut)
	}
}
