package search

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Acronym definitions like "Transition path sampling (TPS)" or "Key-Value
// (KV)" are mined from the papers' titles and abstracts at index time
// (metaBuilder.add counts how many papers define each pair), with the
// algorithm of Schwartz & Hearst (2003): the acronym's letters must appear
// in order in the words before the parenthesis, its first letter starting
// a word.

// definitions returns the acronym definitions in one text.
func definitions(text string) []acronymPair {
	var out []acronymPair
	for i := 0; i < len(text); i++ {
		if text[i] != '(' {
			continue
		}
		end := strings.IndexByte(text[i+1:], ')')
		if end < 0 {
			break
		}
		short := text[i+1 : i+1+end]
		if !isAcronym(short) {
			continue
		}
		before := sentenceTail(text[:i])
		if long := longForm(strings.TrimSuffix(short, "s"), before, short); long != "" {
			out = append(out, acronymPair{short: strings.TrimSuffix(short, "s"), long: long, count: 1})
		}
	}
	return out
}

// isAcronym accepts "TPS", "MLIPs", "GraphBFN", "ViT", "4D-Var": 2 to 12
// characters, no spaces, starting with a letter or digit, with at least two
// capitals and more capitals than lower-case letters unless it is mixed-case
// CamelCase of at most 8 characters.
func isAcronym(s string) bool {
	n := utf8.RuneCountInString(s)
	if n < 2 || n > 12 {
		return false
	}
	first, _ := utf8.DecodeRuneInString(s)
	if !unicode.IsLetter(first) && !unicode.IsDigit(first) {
		return false
	}
	upper, lower := 0, 0
	for _, r := range s {
		switch {
		case unicode.IsUpper(r):
			upper++
		case unicode.IsLower(r):
			lower++
		case unicode.IsDigit(r), r == '-':
		default:
			return false
		}
	}
	return upper >= 2 && (upper > lower || n <= 8)
}

// sentenceTail returns the text after the last sentence or clause boundary
// before an acronym's parenthesis.
func sentenceTail(s string) string {
	cut := strings.LastIndexAny(s, ".;:()[]")
	if cut >= 0 {
		s = s[cut+1:]
	}
	return strings.TrimSpace(s)
}

// longForm returns the shortest run of trailing words of before whose
// letters contain short's letters in order, the first one starting a word,
// or "" when there is none. (short is the acronym without a plural s; full
// is as written, for the word-count limit.)
func longForm(short, before, full string) string {
	s := []rune(strings.ToLower(short))
	b := []rune(before)
	l := make([]rune, len(b))
	for i, r := range b {
		l[i] = unicode.ToLower(r)
	}
	alnum := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	si, li := len(s)-1, len(l)-1
	for si >= 0 {
		c := s[si]
		if !alnum(c) {
			si--
			continue
		}
		for li >= 0 && (l[li] != c || (si == 0 && li > 0 && alnum(l[li-1]))) {
			li--
		}
		if li < 0 {
			return ""
		}
		li--
		si--
	}
	start := li + 1
	for start > 0 && !unicode.IsSpace(b[start-1]) {
		start--
	}
	long := strings.TrimSpace(string(b[start:]))
	words := strings.Fields(long)
	n := utf8.RuneCountInString(full)
	if len(words) == 0 || len(words) > min(n+5, 2*n) || utf8.RuneCountInString(long) <= len(s) {
		return ""
	}
	return long
}
