// Package lexicon is the language data of paperbot's query parser and chat
// router: which words frame a request, open a message, ask for the newest
// papers, stand for another word, and where. The words live in
// lexicon.tsv, one row a word with its role, anchor and an example; this
// package is the one matcher that reads them.
package lexicon

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"
)

//go:embed lexicon.tsv
var tsv string

// Row is one word of the lexicon.
type Row struct {
	Word, Role, Anchor, Example string
	Line                        int // in lexicon.tsv, for messages
}

// Rows returns the rows of lexicon.tsv in order. Callers must not modify
// the slice.
func Rows() []Row { return rows() }

var rows = sync.OnceValue(func() []Row {
	var out []Row
	for i, line := range strings.Split(tsv, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 4 {
			panic(fmt.Sprintf("lexicon.tsv:%d: %d columns, want word, role, anchor, example", i+1, len(cols)))
		}
		out = append(out, Row{Word: cols[0], Role: cols[1], Anchor: cols[2], Example: cols[3], Line: i + 1})
	}
	return out
})

// Words returns the set of words with role under anchor. It panics when
// there is none, so that a misspelt role fails at start-up, not by
// matching nothing.
func Words(role, anchor string) map[string]bool {
	set := map[string]bool{}
	for _, r := range rows() {
		if r.Role == role && r.Anchor == anchor {
			set[r.Word] = true
		}
	}
	if len(set) == 0 {
		panic(fmt.Sprintf("lexicon: no words of role %q under anchor %q", role, anchor))
	}
	return set
}

// Pairs returns, for the words with role whose anchor starts with prefix,
// the rest of the anchor: what the word stands for ("interp" →
// "interpretability" under "means:"), or the word it goes with. It panics
// when there is none, as Words does.
func Pairs(role, prefix string) map[string]string {
	pairs := map[string]string{}
	for _, r := range rows() {
		if v, ok := strings.CutPrefix(r.Anchor, prefix); ok && r.Role == role {
			pairs[r.Word] = v
		}
	}
	if len(pairs) == 0 {
		panic(fmt.Sprintf("lexicon: no words of role %q under anchor %q", role, prefix+"…"))
	}
	return pairs
}
