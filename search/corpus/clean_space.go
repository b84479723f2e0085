package corpus

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// tidySpace collapses runs of white space to one space, trims the ends and
// restores the space missing in scraped text such as "LLMs.To overcome".
func tidySpace(s string) string {
	if isTidy(s) {
		return fixSentenceJoins(s)
	}
	var out strings.Builder
	out.Grow(len(s))
	space := false
	for i := 0; i < len(s); {
		ch := s[i]
		n := 1
		isSpace := ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f'
		if ch >= utf8.RuneSelf {
			var r rune
			r, n = utf8.DecodeRuneInString(s[i:])
			isSpace = unicode.IsSpace(r)
		}
		if isSpace {
			space = out.Len() > 0
		} else {
			if space {
				out.WriteByte(' ')
				space = false
			}
			out.WriteString(s[i : i+n])
		}
		i += n
	}
	return fixSentenceJoins(out.String())
}

// isTidy reports whether s has no space to collapse or trim; non-ASCII
// spaces count as untidy.
func isTidy(s string) bool {
	if s == "" {
		return true
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; {
		case ch == ' ':
			if s[i+1] == ' ' {
				return false
			}
		case ch < ' ', ch == 0x7f, ch >= utf8.RuneSelf && (ch == 0xc2 || ch == 0xe1 || ch == 0xe2 || ch == 0xe3):
			// control characters; U+0085, U+00A0, U+1680, U+2000-U+205F, U+3000
			return false
		}
	}
	return true
}

// fixSentenceJoins inserts a space in "words.Next" where a scraper removed a
// line break between sentences: two lower-case letters, a period, then an
// upper-case letter followed by a lower-case one. URLs are left alone.
func fixSentenceJoins(s string) string {
	var b strings.Builder
	last := 0
	for i := 2; i+2 < len(s); i++ {
		if s[i] != '.' || !isASCIILower(s[i-1]) || !isASCIILetter(s[i-2]) || !isASCIIUpper(s[i+1]) || !isASCIILower(s[i+2]) {
			continue
		}
		ws := max(0, i-maxLinkScan)
		ws += strings.LastIndexByte(s[ws:i], ' ') + 1
		if strings.ContainsAny(s[ws:i], "/@") {
			continue
		}
		if b.Len() == 0 {
			b.Grow(len(s) + 8)
		}
		b.WriteString(s[last : i+1])
		b.WriteByte(' ')
		last = i + 1
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}
