package lexicon

import (
	"strings"
	"testing"
)

// Words are found in any case, as strings.ToLower would fold them, and a
// short ASCII word is looked up without allocating.
func TestHasFolds(t *testing.T) {
	set := map[string]bool{"paper": true, "größe": true}
	for _, w := range []string{"paper", "Paper", "PAPER", "GRÖSSE", "Größe", "größe"} {
		if got, want := has(set, w), set[strings.ToLower(w)]; got != want {
			t.Errorf("has(%q) = %v, want %v", w, got, want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { has(set, "Papers") }); n != 0 {
		t.Errorf("%v allocations per lookup of an ASCII word", n)
	}
}
