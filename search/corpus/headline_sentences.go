package corpus

import "strings"

// Sentences splits cleaned text into sentences, with the same rule as the
// answer picker (SentenceSpans): one splitter, so a headline and an
// answer never disagree on where "Ref. 12" or "w.r.t." ends a sentence.
// Sentences keep their final punctuation.
func Sentences(text string) []string {
	spans := SentenceSpans(text)
	out := make([]string, 0, len(spans))
	for _, sp := range spans {
		if s := strings.TrimSpace(text[sp.Start:sp.End]); s != "" {
			out = append(out, s)
		}
	}
	return out
}
