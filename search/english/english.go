// Package english knows how common words are in general English, so that
// search can tell a question that fits its corpus from one that only
// shares everyday words with it. The list is the vocabulary of the GloVe
// 6B word vectors (Wikipedia 2014 and Gigaword 5; public domain, ODC PDDL
// 1.0), commonest first; gen.go says how words.txt was made.
package english

import (
	_ "embed"
	"strings"
	"sync"
)

//go:embed words.txt
var wordList string

var (
	loadOnce sync.Once
	ranks    map[string]int32
)

// Words is how many words the list holds.
const Words = 50000

// harmonic is about the sum of 1/rank over GloVe's whole vocabulary (about
// 400,000 words), the constant of its Zipf law.
const harmonic = 13.5

// Frequency estimates the share of running English text that is word (a
// lower-case word of letters): Zipf's law over its rank in the list. A
// word past the list gets the frequency of rank 2*Words, rare but not
// unheard of. Safe for concurrent use; the list is read at the first call.
func Frequency(word string) float64 {
	loadOnce.Do(load)
	r, ok := ranks[word]
	if !ok {
		return Unlisted
	}
	return 1 / (float64(r) * harmonic)
}

// Each calls fn with every word of the list and its Frequency, commonest
// first.
func Each(fn func(word string, freq float64)) {
	loadOnce.Do(load)
	r := 0
	for w := range strings.SplitSeq(wordList, "\n") {
		if w == "" {
			continue
		}
		r++
		fn(w, 1/(float64(r)*harmonic))
	}
}

// Unlisted is the Frequency of a word past the list.
const Unlisted = 1 / (2 * Words * harmonic)

// Known reports whether word is among the list's words.
func Known(word string) bool {
	loadOnce.Do(load)
	_, ok := ranks[word]
	return ok
}

// Rank is word's place in the list, commonest first from 1; a word past
// the list ranks Words+1.
func Rank(word string) int {
	loadOnce.Do(load)
	if r, ok := ranks[word]; ok {
		return int(r)
	}
	return Words + 1
}

// KnownForm reports whether word is a listed word or its regular plural
// ("crosswords", "theories", "boxes"): the list keeps the forms common
// enough to rank, and a plural of an English word is English too.
func KnownForm(word string) bool {
	if Known(word) {
		return true
	}
	switch {
	case strings.HasSuffix(word, "ies") && len(word) > 4:
		return Known(word[:len(word)-3] + "y")
	case strings.HasSuffix(word, "es") && len(word) > 3 && Known(word[:len(word)-2]):
		return true
	case strings.HasSuffix(word, "s") && !strings.HasSuffix(word, "ss") && len(word) > 3:
		return Known(word[:len(word)-1])
	}
	return false
}

func load() {
	ranks = make(map[string]int32, Words)
	r := int32(0)
	for w := range strings.SplitSeq(wordList, "\n") {
		if w == "" {
			continue
		}
		r++
		if _, dup := ranks[w]; !dup {
			ranks[w] = r
		}
	}
}
