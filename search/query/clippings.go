package query

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/paperbot/paperbot/search/lexicon"
)

// clippings are the clipped words researchers type in chat ("mech interp",
// "hparam tuning", "object det") with the word papers write. Kept small and
// hand-checked: each must mean that word when an ML researcher types it in
// lower case. Typed in capitals it stays as typed ("ARCH" models, "DET").
var clippings = lexicon.Pairs("clipping", "means:")

// chatShorthands are whole words of chat written for the words papers use:
// "w/o finetuning" asks for papers without it.
var chatShorthands = lexicon.Pairs("shorthand", "means:")

// styleSuffixes make a word mean "in the manner of": "GPT-style next-patch
// prediction", "SMC-style reweighting" ask about GPT and SMC, not about
// style (transfer).
var styleSuffixes = []string{"-style", "-styled", "-esque"}

// withoutStyleSuffix returns w without a style suffix, when a word is left.
func withoutStyleSuffix(w string) string {
	for _, suf := range styleSuffixes {
		if n := len(w) - len(suf); n > 0 && strings.EqualFold(w[n:], suf) {
			return w[:n]
		}
	}
	return w
}

// shorthands are stems that mean another after certain words: "neural
// nets" are networks, "batch norm" and "layer norm" normalizations (alone,
// "norm" is a vector's). Stems as the analyzer makes them.
var shorthands = []struct {
	after       map[string]bool
	typed, mean string
}{
	{map[string]bool{"neural": true}, "net", "network"},
	{map[string]bool{"batch": true, "layer": true, "group": true, "instanc": true}, "norm", "normaliz"},
}

// ShorthandAfter returns the stem typed means after the stem prev, or "".
func ShorthandAfter(prev, typed string) string {
	for _, sh := range shorthands {
		if sh.typed == typed && sh.after[prev] {
			return sh.mean
		}
	}
	return ""
}

// Clipping returns the word a clipped word w stands for, or "".
func Clipping(w string) string {
	_, first := utf8.DecodeRuneInString(w)
	if rest := w[first:]; rest != strings.ToLower(rest) {
		return "" // typed in capitals: an acronym or a name
	}
	lw := strings.ToLower(w)
	if full, ok := clippings[lw]; ok {
		return full
	}
	if full, ok := clippings[strings.TrimSuffix(lw, "s")]; ok {
		return full + "s"
	}
	return ""
}

// snakeCaseApart writes the parts of code names apart: "flash_attn" is
// "flash attn", which the analyzer would keep as one word no paper has. An
// underscore stays unless letters are on both its sides, two or more: in
// "l_1" and "x_t" it marks a subscript, in "CRF01_AE" it is part of a name.
func snakeCaseApart(text []Clause) []Clause {
	if !slices.ContainsFunc(text, func(c Clause) bool { return !c.Phrase && strings.Contains(c.Text, "_") }) {
		return text
	}
	out := make([]Clause, 0, len(text)+2)
	for _, c := range text {
		if c.Phrase || !strings.Contains(c.Text, "_") {
			out = append(out, c)
			continue
		}
		start := 0
		for i := 0; i < len(c.Text); i++ {
			if c.Text[i] == '_' && letterRun(c.Text[:i], true) >= 2 && letterRun(c.Text[i+1:], false) >= 2 {
				out = append(out, Clause{Text: c.Text[start:i]})
				start = i + 1
			}
		}
		out = append(out, Clause{Text: c.Text[start:]})
	}
	return out
}

// letterRun counts the letters that end s (atEnd) or start it, when the
// word they are part of has no digit there: 0 for the "CRF01" of CRF01_AE.
func letterRun(s string, atEnd bool) int {
	n := 0
	for len(s) > 0 {
		var r rune
		var size int
		if atEnd {
			r, size = utf8.DecodeLastRuneInString(s)
			s = s[:len(s)-size]
		} else {
			r, size = utf8.DecodeRuneInString(s)
			s = s[size:]
		}
		if unicode.IsDigit(r) {
			return 0
		}
		if !unicode.IsLetter(r) {
			break
		}
		n++
	}
	return n
}

// shortYearsApart writes a year typed with an apostrophe as the year:
// "ICML'25" is ICML 2025, "NeurIPS '24" NeurIPS 2024. Searched as typed,
// "25" matched numbers in abstracts.
func shortYearsApart(text []Clause) []Clause {
	if !slices.ContainsFunc(text, func(c Clause) bool { return !c.Phrase && strings.ContainsAny(c.Text, "'’") }) {
		return text
	}
	out := make([]Clause, 0, len(text)+1)
	for _, c := range text {
		name, year, ok := shortYear(c)
		if !ok {
			out = append(out, c)
			continue
		}
		if name != "" {
			out = append(out, Clause{Text: name})
		}
		out = append(out, Clause{Text: year})
	}
	return out
}

// shortYear splits "ICML'25," into "ICML" and "2025,"; ok is false when c
// ends in no apostrophe and two digits.
func shortYear(c Clause) (name, year string, ok bool) {
	if c.Phrase {
		return "", "", false
	}
	body := strings.TrimRight(c.Text, ",.;:!?)")
	tail := c.Text[len(body):]
	if len(body) < 3 || !isDigit(body[len(body)-1]) || !isDigit(body[len(body)-2]) {
		return "", "", false
	}
	name, found := strings.CutSuffix(body[:len(body)-2], "'")
	if !found {
		if name, found = strings.CutSuffix(body[:len(body)-2], "’"); !found {
			return "", "", false
		}
	}
	if strings.IndexFunc(name, func(r rune) bool { return !unicode.IsLetter(r) }) >= 0 {
		return "", "", false // "5'UTR", "3'-end": no year
	}
	century := "20"
	if body[len(body)-2] > '5' {
		century = "19" // "NIPS '98"
	}
	return name, century + body[len(body)-2:] + tail, true
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }
