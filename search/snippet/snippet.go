// Package snippet cuts the excerpt of an abstract shown under a result: about
// Len bytes around the best sentence, with the query's words marked. It is
// the last stage of a search, and knows nothing of the index.
package snippet

import (
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/paperbot/paperbot/search/corpus"
)

// Span is a piece of a Snippet; Mark is true for a highlighted query term.
type Span struct {
	Text string
	Mark bool
}

// Snippet is text with highlighted spans. It marshals to JSON as one string
// with highlights wrapped in "**".
type Snippet []Span

// Marked joins the spans, wrapping marked ones in open and close.
func (s Snippet) Marked(open, close string) string {
	var b strings.Builder
	for _, sp := range s {
		if sp.Mark {
			b.WriteString(open + sp.Text + close)
		} else {
			b.WriteString(sp.Text)
		}
	}
	return b.String()
}

// String returns the plain text without marks.
func (s Snippet) String() string { return s.Marked("", "") }

func (s Snippet) MarshalJSON() ([]byte, error) { return json.Marshal(s.Marked("**", "**")) }

// Hit is a matched query word in the text: its byte range.
type Hit interface {
	Bounds() (start, end int)
}

// Len is the target length of a snippet in bytes, before ellipses.
const Len = 300

// Make returns about Len bytes of text around focus (the best sentence; the
// start of the text when focus is empty), cut at word boundaries, with every
// hit inside it marked. Hits must be in text order. Generic over the hit
// type so that the matcher's hits are passed as they are, without a copy.
func Make[H Hit](text string, hits []H, focus corpus.Span) Snippet {
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
		start, end := h.Bounds()
		if start < at || end > we {
			continue // outside the window, or overlapping a hit already marked
		}
		if start > at {
			sn = append(sn, Span{Text: text[at:start]})
		}
		sn = append(sn, Span{Text: text[start:end], Mark: true})
		at = end
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
func window[H Hit](text string, hits []H, focus corpus.Span) (int, int) {
	if len(text) <= Len+Len/5 {
		return 0, len(text)
	}
	if focus.End <= focus.Start {
		return 0, wordEnd(text, Len)
	}
	ws := focus.Start
	if focus.End-focus.Start > Len {
		// A long sentence: start a little before its first hit.
		for _, h := range hits {
			if start, end := h.Bounds(); start >= focus.Start && end <= focus.End {
				ws = max(focus.Start, start-Len/4)
				break
			}
		}
		ws = wordStart(text, ws)
	} else if focus.Start+Len > len(text) {
		// A short sentence near the end: show what leads up to it.
		ws = wordStart(text, len(text)-Len)
	}
	return ws, wordEnd(text, min(len(text), ws+Len))
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
