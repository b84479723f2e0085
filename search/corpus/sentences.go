package corpus

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Span is a byte range of a text: text[Start:End].
type Span struct{ Start, End int }

// abbreviations end with a period that does not end a sentence.
// ("etc." is not one: it usually ends its sentence.)
var abbreviations = map[string]bool{
	"e.g": true, "i.e": true, "al": true, "vs": true, "fig": true, "figs": true, "eq": true,
	"eqs": true, "cf": true, "approx": true, "resp": true, "sec": true, "no": true,
	"dr": true, "mr": true, "ms": true, "prof": true, "ref": true, "refs": true, "ca": true,
	"w.r.t": true, "incl": true,
}

// SentenceSpans splits text into sentences: a period, question or exclamation
// mark followed by white space and a capital, digit, quote or bracket ends
// one (so does a lower-case name with a capital or digit, "mTORC2"), unless
// it closes an abbreviation ("e.g.", "et al.") or an initial.
func SentenceSpans(text string) []Span {
	var out []Span
	start := skipSpaces(text, 0)
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c != '.' && c != '?' && c != '!' {
			continue
		}
		j := i + 1
		for j < len(text) && (text[j] == '"' || text[j] == '\'' || text[j] == ')') {
			j++ // closing quote or bracket stays with its sentence
		}
		if j >= len(text) || !isSpaceASCII(text[j]) {
			continue
		}
		next := skipSpaces(text, j)
		if next >= len(text) {
			break
		}
		r, _ := utf8.DecodeRuneInString(text[next:])
		if !unicode.IsUpper(r) && !unicode.IsDigit(r) && !strings.ContainsRune("\"'([“‘", r) && !mixedCase(text[next:]) {
			continue
		}
		if c == '.' && abbreviated(text[start:i]) {
			continue
		}
		out = append(out, Span{start, j})
		start, i = next, next-1
	}
	if end := len(strings.TrimRightFunc(text, unicode.IsSpace)); start < end {
		out = append(out, Span{start, end})
	}
	return out
}

// mixedCase reports whether rest opens with a lower-case word that holds a
// capital or a digit, or with a Greek letter: gene, protein and model names
// ("mTORC2", "p53", "iPSCs", "β-catenin") begin sentences in lower case.
func mixedCase(rest string) bool {
	for i, r := range rest {
		if i == 0 && unicode.Is(unicode.Greek, r) {
			return true
		}
		if i == 0 && !unicode.IsLower(r) {
			return false
		}
		if unicode.IsSpace(r) || r == ',' || r == ';' || r == ':' {
			return false
		}
		if unicode.IsUpper(r) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// abbreviated reports whether before (a sentence so far) ends in an
// abbreviation or a single-letter initial.
func abbreviated(before string) bool {
	k := strings.LastIndexFunc(before, func(r rune) bool { return unicode.IsSpace(r) || r == '(' })
	w := strings.ToLower(before[k+1:])
	return abbreviations[w] || (utf8.RuneCountInString(w) == 1 && unicode.IsLetter([]rune(w)[0]))
}

func skipSpaces(s string, i int) int {
	for i < len(s) && isSpaceASCII(s[i]) {
		i++
	}
	return i
}

func isSpaceASCII(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
