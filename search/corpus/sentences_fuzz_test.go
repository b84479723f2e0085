package corpus

import (
	"strings"
	"testing"
	"unicode"
)

// Sentence spans are in order, within the text, and between them hold only
// white space: no word is lost or shown twice in an answer.
func FuzzSentenceSpans(f *testing.F) {
	for _, s := range []string{
		"One. Two! Three? Four",
		"We identified mTORC2 as a regulator of xCT. mTORC2 phosphorylates xCT. p53 is unchanged.",
		"It grows, e.g. mTOR rises. β-catenin was stable.",
		"See Ref. 12 for details. We optimise w.r.t. Theta here.",
		". . .\t\n x. \xff\xfe. é",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		prev := 0
		for _, sp := range SentenceSpans(text) {
			if sp.Start < prev || sp.End <= sp.Start || sp.End > len(text) {
				t.Fatalf("span %v after %d in %q", sp, prev, text)
			}
			if gap := text[prev:sp.Start]; strings.TrimFunc(gap, unicode.IsSpace) != "" {
				t.Fatalf("%q of %q is in no sentence", gap, text)
			}
			prev = sp.End
		}
		if rest := text[prev:]; strings.TrimFunc(rest, unicode.IsSpace) != "" {
			t.Fatalf("%q of %q is in no sentence", rest, text)
		}
	})
}
