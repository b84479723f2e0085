package semantic

import (
	"unicode/utf8"
)

// vocab finds a word's rows: the whole word if it is a row, else WordPiece
// greedy longest-match-first over the rows, with ## continuations.
type vocab struct {
	tokens       []string         // row i's token as written in vocab.txt
	whole        map[string]int32 // rows without the ## prefix
	cont         map[string]int32 // ## rows, keyed without the prefix
	maxWhole     int              // longest key of whole, in bytes
	maxCont      int              // longest key of cont, in bytes
	maxWordChars int              // longer words contribute nothing
}

// lookup appends word's rows to ids. A word that cannot be split wholly
// into rows appends nothing.
func (v *vocab) lookup(word []byte, ids []int32) []int32 {
	if id, ok := v.whole[string(word)]; ok {
		return append(ids, id)
	}
	if utf8.RuneCount(word) > v.maxWordChars {
		return ids
	}
	start := len(ids)
	for pos := 0; pos < len(word); {
		m, max := v.whole, v.maxWhole
		if pos > 0 {
			m, max = v.cont, v.maxCont
		}
		end := min(len(word), pos+max)
		for end > pos && !utf8.RuneStart(safeByte(word, end)) {
			end--
		}
		found := false
		for end > pos {
			if id, ok := m[string(word[pos:end])]; ok {
				ids = append(ids, id)
				pos, found = end, true
				break
			}
			end--
			for end > pos && !utf8.RuneStart(word[end]) {
				end--
			}
		}
		if !found {
			return ids[:start]
		}
	}
	return ids
}

// safeByte is word[i], or a rune start past the end.
func safeByte(word []byte, i int) byte {
	if i >= len(word) {
		return 0
	}
	return word[i]
}
