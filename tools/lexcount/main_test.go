package main

import (
	"os"
	"path/filepath"
	"testing"
)

// Each kind of hand-listed word is counted once; code and punctuation are
// not words.
func TestCount(t *testing.T) {
	src := `package p

var set = map[string]bool{"hi": true, "hello": true}
var pairs = []struct{ a, b string }{{"w/o", "without"}}

func f(w string) bool {
	switch w {
	case "so", "?":
		return w == "q" || wordsAt(nil, 0, "point", "me|us")
	}
	return w != "" && fmt.Sprintf("%d", 1) == "x"
}
`
	path := filepath.Join(t.TempDir(), "p.go")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	if err := count(path, got); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{mapLiterals: 1, "composite elements": 4, "switch cases": 1, "comparisons": 2, "pattern arguments": 2}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%s: %d, want %d", k, got[k], n)
		}
	}
}
