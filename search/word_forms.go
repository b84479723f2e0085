package search

import "strings"

// Porter gives words of different meaning one stem: "general",
// "generative" and "generation" are all "gener", "interpretable" and
// "interpretation" "interpret", "university" and "universal" "univers". A
// paper's word with the stem of a typed word counts only when it is a form
// of that word (sameWordForms), so "generative models" is not matched by
// "a general model", and its card does not say it was.

// sameWordForms reports whether word, from a paper, is a form of typed
// (lower case), the two having stem: the same but for an inflection
// ("models", "modelling", "learned"), long alike past the stem
// ("generation", "generated"), or with kin endings ("deception",
// "deceptive"; "scalable", "scalability"; "matrix", "matrices").
func sameWordForms(typed, word, stem string) bool {
	if strings.EqualFold(typed, word) || curatedStems[stem] || !asciiLetters(typed) || !asciiLetters(word) {
		// ownStems keeps its families apart already; folded and normalised
		// words ("β-VAE", "Ca²⁺", "ℓ₁") share a stem by design.
		return true
	}
	cp := 0
	for cp < len(typed) && cp < len(word) && typed[cp] == lowerASCII(word[cp]) {
		cp++
	}
	if cp >= len(stem)+2 || inflected(typed, cp) || inflected(word, cp) {
		return true
	}
	// One letter back: "contracti-on" and "contracti-ve" end in "ion" and "ive".
	for back := 0; back <= min(cp, 1); back++ {
		a, b := typed[cp-back:], word[cp-back:]
		for _, kin := range kinEndings {
			if hasEnding(kin, a) && hasEnding(kin, b) {
				return true
			}
		}
	}
	return false
}

// inflected reports whether w, past its first cp bytes, is only an
// inflection: a plural, a verb ending, an adverb's "ly", or nothing. A
// doubled consonant belongs to the ending ("modelling", "running").
func inflected(w string, cp int) bool {
	r := w[cp:]
	if cp > 0 && len(r) > 1 && lowerASCII(r[0]) == lowerASCII(w[cp-1]) {
		r = r[1:]
	}
	return hasEnding(inflections, r)
}

// curatedStems are the stems ownStems gives: a family written out by hand,
// British spellings included ("normalise", "normalize").
var curatedStems = func() map[string]bool {
	m := map[string]bool{}
	for _, stem := range ownStems {
		m[stem] = true
	}
	return m
}()

var inflections = []string{"", "s", "es", "ed", "d", "ing", "ings", "e", "y", "ies", "ied", "ly"}

// kinEndings are endings of one word's family: two words that differ only
// by two endings of one set are forms of one word.
var kinEndings = [][]string{
	{"ion", "ions", "ive", "ives", "ively", "or", "ors"},
	{"le", "ly", "ility", "ilities"},
	{"x", "ces"}, {"is", "es"}, {"um", "a"}, {"on", "a"},
}

// hasEnding reports whether r, in any case, is one of endings.
func hasEnding(endings []string, r string) bool {
	for _, e := range endings {
		if strings.EqualFold(e, r) {
			return true
		}
	}
	return false
}

// asciiLetters reports whether w is ASCII letters only.
func asciiLetters(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := lowerASCII(w[i]); c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
