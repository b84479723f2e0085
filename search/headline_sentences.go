package search

import "strings"

// Sentences splits cleaned text into sentences, with the same rule as the
// answer picker (sentences in answer.go): one splitter, so a headline and an
// answer never disagree on where "Ref. 12" or "w.r.t." ends a sentence.
// Sentences keep their final punctuation.
func Sentences(text string) []string {
	spans := sentences(text)
	out := make([]string, 0, len(spans))
	for _, sp := range spans {
		if s := strings.TrimSpace(text[sp.start:sp.end]); s != "" {
			out = append(out, s)
		}
	}
	return out
}
