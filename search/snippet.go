package search

import (
	"unicode"
	"unicode/utf8"
)

// snippetLen is the target length of a snippet in bytes, before ellipses.
const snippetLen = 300

// makeSnippet returns about snippetLen bytes of text around focus (the best
// sentence; the start of the text when focus is empty), cut at word
// boundaries, with every hit inside it marked. Hits must be in text order.
func makeSnippet(text string, hits []hit, focus span) Snippet {
	if text == "" {
		return nil
	}
	ws, we := window(text, hits, focus)
	var sn Snippet
	if ws > 0 {
		sn = append(sn, Span{Text: "…"})
	}
	at := ws
	for _, h := range hits {
		if h.start < at || h.end > we {
			continue // outside the window, or overlapping a hit already marked
		}
		if h.start > at {
			sn = append(sn, Span{Text: text[at:h.start]})
		}
		sn = append(sn, Span{Text: text[h.start:h.end], Mark: true})
		at = h.end
	}
	if at < we {
		sn = append(sn, Span{Text: text[at:we]})
	}
	if we < len(text) {
		sn = append(sn, Span{Text: "…"})
	}
	return sn
}

// window picks the byte range of a snippet.
func window(text string, hits []hit, focus span) (int, int) {
	if len(text) <= snippetLen+snippetLen/5 {
		return 0, len(text)
	}
	if focus.End <= focus.Start {
		return 0, wordEnd(text, snippetLen)
	}
	ws := focus.Start
	if focus.End-focus.Start > snippetLen {
		// A long sentence: start a little before its first hit.
		for _, h := range hits {
			if h.start >= focus.Start && h.end <= focus.End {
				ws = max(focus.Start, h.start-snippetLen/4)
				break
			}
		}
		ws = wordStart(text, ws)
	} else if focus.Start+snippetLen > len(text) {
		// A short sentence near the end: show what leads up to it.
		ws = wordStart(text, len(text)-snippetLen)
	}
	return ws, wordEnd(text, min(len(text), ws+snippetLen))
}

// wordStart moves i forward to the start of a word (not splitting a word).
func wordStart(text string, i int) int {
	if i <= 0 {
		return 0
	}
	for i < len(text) && !utf8.RuneStart(text[i]) {
		i++
	}
	r, _ := utf8.DecodeLastRuneInString(text[:i])
	if unicode.IsSpace(r) {
		return i
	}
	for i < len(text) {
		r, n := utf8.DecodeRuneInString(text[i:])
		i += n
		if unicode.IsSpace(r) {
			break
		}
	}
	return i
}

// wordEnd moves i forward to the end of the word it is in.
func wordEnd(text string, i int) int {
	if i >= len(text) {
		return len(text)
	}
	for i < len(text) && !utf8.RuneStart(text[i]) {
		i++
	}
	for i < len(text) {
		r, n := utf8.DecodeRuneInString(text[i:])
		if unicode.IsSpace(r) {
			break
		}
		i += n
	}
	return i
}
