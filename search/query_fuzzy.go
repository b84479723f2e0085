package search

import (
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/paperbot/paperbot/search/english"
)

// Typos: a query stem the corpus does not contain is corrected to the most
// frequent corpus stems within a small edit distance ("transfomer" ->
// "transform"). Short stems are left alone, or only have two letters swapped
// back ("grpah"): "bread" is not a typo of "break".

const (
	minSwapLen    = 5 // from this length, two swapped letters are corrected
	minFuzzLen    = 6 // from this length, one edit
	minTwoEditLen = 7 // from this length, two if the first two letters agree
	maxFixes      = 3 // corrections kept per stem
)

// fix is a typo correction and its edit distance.
type fix struct {
	term string
	dist int
	df   int // papers with the corrected stem
}

// credit is how much a correction counts towards coverage: two edits are a
// weaker guess than one.
func (f fix) credit() float64 {
	if f.dist >= 2 {
		return 0.6
	}
	return altFuzzy.credit()
}

// typoFixes corrects a word the corpus lacks: from the spellings of general
// English, then from the corpus's own stems, closest first, at most maxFixes.
// A misspelling is often nearer its word than its stem: "temproal" is one
// edit from "temporal" but three from the stem "tempor"; "imitiation" one
// from "imitation". Both were authors' own keywords that found nothing.
func (s *state) typoFixes(surface, stem string) []fix {
	fixes := append(s.spellingFixes(surface), s.vocab.corrections(stem)...)
	// Closest first, then the papers' commonest: "dection" is "decision"
	// or "detection" before "devotion".
	slices.SortStableFunc(fixes, func(a, b fix) int {
		if a.dist != b.dist {
			return a.dist - b.dist
		}
		return b.df - a.df
	})
	closest := 0 // the papers using the commonest correction one edit away
	if len(fixes) > 0 && fixes[0].dist == 1 {
		closest = fixes[0].df
	}
	out := fixes[:0]
	for _, f := range fixes {
		// Beside a word one slip away, one two slips away is a guess too
		// far ("Labled" is "labeled", not also "laced"), unless it is far
		// commoner: "dection" is "detection" more likely than "diction".
		if f.dist > 1 && closest > 0 && f.df < misspeltShare*closest {
			continue
		}
		if !slices.ContainsFunc(out, func(o fix) bool { return o.term == f.term }) && len(out) < maxFixes {
			out = append(out, f)
		}
	}
	return out
}

// maxEdits is the edit distance a word or stem of n letters is corrected
// within. Two edits turn a short word into another word too easily: the
// ML papers lack "thymus", "purine" and "folate", and two edits make them
// "thus", "pure" and "fort".
func maxEdits(n int) int {
	switch {
	case n >= minTwoEditLen:
		return 2
	case n >= minSwapLen:
		return 1
	}
	return 0
}

// misspeltShare: a word no dictionary has, one edit from an English word
// the papers use at least this many times as often, is read as both.
const misspeltShare = 10

// commonerSpellings returns, for a word a few papers do use but English
// does not know, the English words one edit away that far more papers use:
// some abstracts say "uncertainity", most say "uncertainty", and a query
// with either should find both.
func (s *state) commonerSpellings(surface, stem string) []fix {
	if utf8.RuneCountInString(surface) < minFuzzLen {
		return nil
	}
	df := s.vocab.df(stem)
	if df*misspeltShare > s.vocab.n {
		return nil // too common here to be a slip: the field's own word
	}
	var out []fix
	for _, f := range s.spellingFixes(surface) {
		if f.dist == 1 && f.term != stem && f.df >= misspeltShare*df && len(out) < maxFixes {
			out = append(out, f)
		}
	}
	return out
}

// englishByShape lists general English's words (all lower-case ASCII
// letters) by first letter and length, commonest first.
var englishByShape = sync.OnceValue(func() map[spellShape][]string {
	m := map[spellShape][]string{}
	english.Each(func(w string, _ float64) {
		k := spellShape{w[0], len(w)}
		m[k] = append(m[k], w)
	})
	return m
})

type spellShape struct {
	first byte
	n     int
}

// maxSpellLen bounds the words checked against English spellings (the
// longest English words in the list are shorter).
const maxSpellLen = 32

// spellingFixes returns the corpus stems of the English words within the
// allowed edit distance of word as typed (the same rules as corrections),
// closest and commonest first.
func (s *state) spellingFixes(word string) []fix {
	word = strings.ToLower(word)
	n := len(word)
	if n < minSwapLen || n > maxSpellLen || !isLowerASCII(word) {
		return nil
	}
	// A real English word is never "corrected" (wordGroup), so a short
	// one gets any one edit here, not just a swap: "shfts" is "shifts".
	d := maxEdits(n)
	var out []fix
	shapes := englishByShape()
	for m := n - d; m <= n+d; m++ {
		for _, w := range shapes[spellShape{word[0], m}] {
			dist, ok := editDistance(word, w, d)
			if !ok || dist == 0 || (dist == 2 && word[1] != w[1]) {
				continue
			}
			toks := s.an.text.Analyze([]byte(w))
			if len(toks) != 1 {
				continue
			}
			stem := string(toks[0].Term)
			if df := s.vocab.df(stem); df > 0 {
				out = append(out, fix{stem, dist, df})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b fix) int { return a.dist - b.dist })
	return out
}

func isLowerASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

// corrections returns up to maxFixes corpus stems within the allowed edit
// distance of stem, sharing its first letter (two for two edits), closest and
// most frequent first.
func (v *vocab) corrections(stem string) []fix {
	n := utf8.RuneCountInString(stem)
	if n < minSwapLen {
		return nil
	}
	d := maxEdits(n)
	first, _ := utf8.DecodeRuneInString(stem)
	var cs []fix
	v.eachWithPrefix(string(first), func(t string, df int) {
		m := utf8.RuneCountInString(t)
		if m < n-d || m > n+d || t == stem {
			return
		}
		dist, ok := editDistance(stem, t, d)
		if !ok || (dist == 2 && !samePrefix(stem, t, 2)) || (n < minFuzzLen && !swapped(stem, t)) {
			return
		}
		cs = append(cs, fix{t, dist, df})
	})
	slices.SortFunc(cs, func(a, b fix) int {
		if a.dist != b.dist {
			return a.dist - b.dist
		}
		if a.df != b.df {
			return b.df - a.df
		}
		return strings.Compare(a.term, b.term)
	})
	return cs[:min(len(cs), maxFixes)]
}

// editDistance returns the Damerau-Levenshtein (optimal string alignment)
// distance of a and b when it is at most limit. Words of up to maxSpellLen
// letters need no allocation: it runs for thousands of candidate words per
// misspelt query word.
func editDistance(a, b string, limit int) (int, bool) {
	var bufA, bufB [maxSpellLen]rune
	ra, rb := appendRunes(bufA[:0], a), appendRunes(bufB[:0], b)
	if absInt(len(ra)-len(rb)) > limit {
		return 0, false
	}
	var rows [3][maxSpellLen + 1]int
	prev2, prev, cur := rows[0][:], rows[1][:], rows[2][:]
	if len(rb) > maxSpellLen {
		prev2, prev, cur = make([]int, len(rb)+1), make([]int, len(rb)+1), make([]int, len(rb)+1)
	}
	for j := 0; j <= len(rb); j++ {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		rowMin := i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > limit {
			return 0, false
		}
		prev2, prev, cur = prev, cur, prev2
	}
	if prev[len(rb)] > limit {
		return 0, false
	}
	return prev[len(rb)], true
}

// appendRunes appends the runes of s to buf.
func appendRunes(buf []rune, s string) []rune {
	for _, r := range s {
		buf = append(buf, r)
	}
	return buf
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// samePrefix reports whether a and b share their first n runes.
func samePrefix(a, b string, n int) bool {
	ra, rb := []rune(a), []rune(b)
	if len(ra) < n || len(rb) < n {
		return false
	}
	return string(ra[:n]) == string(rb[:n])
}

// swapped reports whether b is a with two adjacent letters exchanged.
func swapped(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	if len(ra) != len(rb) {
		return false
	}
	i := 0
	for i < len(ra) && ra[i] == rb[i] {
		i++
	}
	return i+1 < len(ra) && ra[i] == rb[i+1] && ra[i+1] == rb[i] && string(ra[i+2:]) == string(rb[i+2:])
}
