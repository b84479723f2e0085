package corpus

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/paperbot/paperbot/search/english"
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
		if c == '.' && abbreviated(text[start:i], text[next:]) {
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
// abbreviation or a single-letter initial; rest is the text after it.
func abbreviated(before, rest string) bool {
	k := strings.LastIndexFunc(before, func(r rune) bool { return unicode.IsSpace(r) || r == '(' })
	w := strings.ToLower(before[k+1:])
	if abbreviations[w] {
		return true
	}
	if utf8.RuneCountInString(w) != 1 || !unicode.IsLetter([]rune(w)[0]) {
		return false
	}
	return !letterEnds(before[:k+1], before[k+1:], rest)
}

// letterEnds reports whether a single letter and its period (letter) end
// the sentence rather than stand for a name. Initials are capitals after a
// first name, a comma or "and"; species after "of", "with" and the like
// ("S. Typhi"). A lower-case letter ends one ("of size n. We", "for 24
// h. Serum") but the "p." of a protein change ("p. His161Arg") and "c."
// (circa); a capital does after a number ("at 3 T. Data") or a name that
// ends in it ("vitamin D. The", "lamin A. Fibroblasts", "type I. We") when
// a word a sentence opens with follows, or the name reads as a protein's
// ("cyclin B. Overexpression").
func letterEnds(before, letter, rest string) bool {
	if unicode.IsLower([]rune(letter)[0]) {
		return letter != "p" && letter != "c"
	}
	before = strings.TrimRightFunc(before, unicode.IsSpace)
	prev := before[strings.LastIndexFunc(before, unicode.IsSpace)+1:]
	first, _ := utf8.DecodeRuneInString(prev)
	if prev == "" || unicode.IsUpper(first) || strings.ContainsAny(prev[len(prev)-1:], ",;:.)]&") {
		return false
	}
	if strings.ContainsFunc(prev, unicode.IsDigit) {
		return true
	}
	if english.Rank(strings.ToLower(prev)) <= commonWords {
		return false // "by J. Smith", "with S. Typhi", "using J. Smith's"
	}
	next := strings.ToLower(leadingLetters(rest))
	return len(next) >= 2 && english.KnownForm(next) || strings.HasSuffix(prev, "in")
}

// commonWords: a letter after one of English's commonest words is a name's
// initial or a genus ("using J. Smith's method", "killed S. Typhi").
const commonWords = 1000

// leadingLetters returns the letters rest opens with.
func leadingLetters(rest string) string {
	if i := strings.IndexFunc(rest, func(r rune) bool { return !unicode.IsLetter(r) }); i >= 0 {
		return rest[:i]
	}
	return rest
}

func skipSpaces(s string, i int) int {
	for i < len(s) && isSpaceASCII(s[i]) {
		i++
	}
	return i
}

func isSpaceASCII(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
