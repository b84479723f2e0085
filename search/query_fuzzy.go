package search

import (
	"slices"
	"unicode/utf8"
)

// Typos: a query stem the corpus does not contain is corrected to the most
// frequent corpus stems within a small edit distance ("transfomer" ->
// "transform"). Short stems are left alone, or only have two letters swapped
// back ("grpah"): "bread" is not a typo of "break".

const (
	minSwapLen = 5 // from this length, two swapped letters are corrected
	minFuzzLen = 6 // from this length, one edit, or two if the first two letters agree
	maxFixes   = 3 // corrections kept per stem
)

// fix is a typo correction and its edit distance.
type fix struct {
	term string
	dist int
}

// credit is how much a correction counts towards coverage: two edits are a
// weaker guess than one.
func (f fix) credit() float64 {
	if f.dist >= 2 {
		return 0.6
	}
	return altFuzzy.credit()
}

// corrections returns up to maxFixes corpus stems within the allowed edit
// distance of stem, sharing its first letter (two for two edits), closest and
// most frequent first.
func (v *vocab) corrections(stem string) []fix {
	n := utf8.RuneCountInString(stem)
	if n < minSwapLen {
		return nil
	}
	d := 2
	if n < minFuzzLen {
		d = 1
	}
	first, _ := utf8.DecodeRuneInString(stem)
	type cand struct {
		term string
		dist int
		df   int
	}
	var cs []cand
	v.eachWithPrefix(string(first), func(t string, df int) {
		m := utf8.RuneCountInString(t)
		if m < n-d || m > n+d || t == stem {
			return
		}
		dist, ok := editDistance(stem, t, d)
		if !ok || (dist == 2 && !samePrefix(stem, t, 2)) || (n < minFuzzLen && !swapped(stem, t)) {
			return
		}
		cs = append(cs, cand{t, dist, df})
	})
	slices.SortFunc(cs, func(a, b cand) int {
		if a.dist != b.dist {
			return a.dist - b.dist
		}
		if a.df != b.df {
			return b.df - a.df
		}
		if a.term < b.term {
			return -1
		}
		return 1
	})
	out := make([]fix, 0, min(len(cs), maxFixes))
	for _, c := range cs[:min(len(cs), maxFixes)] {
		out = append(out, fix{c.term, c.dist})
	}
	return out
}

// editDistance returns the Damerau-Levenshtein (optimal string alignment)
// distance of a and b when it is at most limit.
func editDistance(a, b string, limit int) (int, bool) {
	ra, rb := []rune(a), []rune(b)
	if absInt(len(ra)-len(rb)) > limit {
		return 0, false
	}
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		rowMin := cur[0]
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
