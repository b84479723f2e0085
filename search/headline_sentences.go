package search

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sentences splits cleaned text into sentences: after '.', '!' or '?'
// followed by a space and a capital letter, digit or opening quote or
// bracket, except after sentenceAbbreviations such as "e.g.", "i.e.", "et al.",
// "Fig." or a single initial. Sentences keep their final punctuation.
func Sentences(text string) []string {
	var out []string
	start := 0
	for i := 0; i < len(text); i++ {
		ch := text[i]
		if ch != '.' && ch != '!' && ch != '?' {
			continue
		}
		if i+2 >= len(text) || text[i+1] != ' ' {
			continue
		}
		next, _ := utf8.DecodeRuneInString(text[i+2:])
		if !unicode.IsUpper(next) && !unicode.IsDigit(next) && !strings.ContainsRune("\"“'([", next) {
			continue
		}
		if ch == '.' && isAbbreviation(text[start:i+1]) {
			continue
		}
		if s := strings.TrimSpace(text[start : i+1]); s != "" {
			out = append(out, s)
		}
		start = i + 2
	}
	if s := strings.TrimSpace(text[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

// sentenceAbbreviations end in a period that does not end a sentence.
var sentenceAbbreviations = []string{"e.g.", "i.e.", "et al.", "etc.", "vs.", "cf.", "Fig.", "Figs.", "Eq.", "Eqs.", "Sec.", "resp.", "approx.", "incl.", "w.r.t.", "Dr.", "Prof.", "No.", "al."}

// isAbbreviation reports whether s ends in an abbreviation or an initial.
func isAbbreviation(s string) bool {
	for _, a := range sentenceAbbreviations {
		if strings.HasSuffix(s, a) && (len(s) == len(a) || !isWordByte(s[len(s)-len(a)-1])) {
			return a != "etc." // "etc." usually ends its sentence
		}
	}
	// A single capital before the period is an initial ("J. Smith").
	if len(s) >= 2 && isASCIIUpper(s[len(s)-2]) && (len(s) == 2 || s[len(s)-3] == ' ') {
		return true
	}
	return false
}
