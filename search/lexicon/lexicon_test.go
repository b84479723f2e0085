package lexicon

import (
	"strings"
	"testing"
)

// The embedded table parses: four columns, none empty, no stray spaces.
// (The examples are checked against the parser in package search and the
// router in package bot.)
func TestRowsComplete(t *testing.T) {
	rows := Rows()
	if len(rows) < 800 {
		t.Fatalf("%d rows, want the whole table", len(rows))
	}
	for _, r := range rows {
		for _, col := range []string{r.Word, r.Role, r.Anchor, r.Example} {
			if col == "" || strings.TrimSpace(col) != col {
				t.Errorf("lexicon.tsv:%d: column %q empty or padded", r.Line, col)
			}
		}
		if r.Word != strings.ToLower(r.Word) {
			t.Errorf("lexicon.tsv:%d: %q is not lower case: the parser looks words up lower-cased", r.Line, r.Word)
		}
	}
}

// Words and Pairs find the rows of a role and anchor, and refuse a role
// or anchor that has none, so that a misspelling fails at start-up.
func TestWordsAndPairs(t *testing.T) {
	if g := Words("greeting", "alone"); !g["hi"] || g["thanks"] {
		t.Errorf("greetings %v", g)
	}
	if c := Pairs("clipping", "means:"); c["interp"] != "interpretability" {
		t.Errorf("interp means %q", c["interp"])
	}
	for _, f := range []func(){func() { Words("greeting", "nowhere") }, func() { Pairs("greting", "means:") }} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("no panic for a role or anchor with no rows")
				}
			}()
			f()
		}()
	}
}
