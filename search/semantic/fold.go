package semantic

import (
	"sort"
	"unicode"
)

//go:generate go run gen_fold.go

// foldEntry is one row of foldTable: a rune and what it folds to.
type foldEntry struct {
	r  rune
	to string
}

// Hangul syllable decomposition constants (Unicode 3.12).
const (
	hangulBase = 0xAC00
	hangulLast = 0xD7A3
	jamoLBase  = 0x1100
	jamoVBase  = 0x1161
	jamoTBase  = 0x11A7
	jamoVCount = 21
	jamoTCount = 28
	jamoNCount = jamoVCount * jamoTCount
)

// fold appends to dst the lower-cased rune r with its accents stripped
// (BERT's do_lower_case and strip_accents: NFD, then drop Mn marks).
func fold(dst []rune, r rune) []rune {
	r = unicode.ToLower(r)
	if r < 0xC0 {
		return append(dst, r)
	}
	if r >= hangulBase && r <= hangulLast {
		s := r - hangulBase
		dst = append(dst, jamoLBase+s/jamoNCount, jamoVBase+(s%jamoNCount)/jamoTCount)
		if t := s % jamoTCount; t != 0 {
			dst = append(dst, jamoTBase+t)
		}
		return dst
	}
	if unicode.Is(unicode.Mn, r) {
		return dst
	}
	i := sort.Search(len(foldTable), func(i int) bool { return foldTable[i].r >= r })
	if i < len(foldTable) && foldTable[i].r == r {
		for _, c := range foldTable[i].to {
			dst = append(dst, unicode.ToLower(c))
		}
		return dst
	}
	return append(dst, r)
}
