package search

import (
	"bytes"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	bleveunicode "github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/registry"
)

// tokenizerText is bleve's word tokenizer, mended where it cuts a word
// apart: a norm keeps its subscript ("ℓ₁", "L-infinity", mapping_norms.go),
// and the possessive s after a number is no word ("GPT-4's" is GPT-4, not
// GPT-4 and a word "s" that every "4's" matches).
const tokenizerText = "paper_words"

type wordTokenizer struct{ words analysis.Tokenizer }

func (wt wordTokenizer) Tokenize(input []byte) analysis.TokenStream {
	ts := wt.words.Tokenize(input)
	for i := 0; i < len(ts); i++ {
		t := ts[i]
		if isPossessiveS(input, t) {
			ts = dropToken(ts, i)
			i--
			continue
		}
		if !isNormLetter(string(t.Term)) {
			ts = withScriptDigits(ts, i, input)
			continue
		}
		// "L-infinity", "l-2": the hyphen joins the norm's index.
		if i+1 < len(ts) && ts[i+1].Start == t.End+1 && input[t.End] == '-' {
			if _, ok := normKey("l_" + strings.ToLower(string(ts[i+1].Term))); ok {
				t.Term = append(append(t.Term, '_'), ts[i+1].Term...)
				t.End = ts[i+1].End
				ts = dropToken(ts, i+1)
				continue
			}
		}
		// The subscript, superscript or ∞ the tokenizer left out, written
		// right after the letter ("ℓ₁", "L∞", "ℓ_∞").
		end := t.End
		for end < len(input) {
			r, size := utf8.DecodeRune(input[end:])
			if _, ok := normIndex(r); !ok || r == '∞' && end > t.End {
				break
			}
			end += size
			if r == '∞' {
				break
			}
		}
		if end > t.End {
			t.Term = append(t.Term, input[t.End:end]...)
			t.End = end
		}
	}
	return ts
}

// scriptDigit returns the digit a sub- or superscript digit stands for.
func scriptDigit(r rune) (byte, bool) {
	switch {
	case r >= '₀' && r <= '₉':
		return byte('0' + r - '₀'), true
	case r >= '⁴' && r <= '⁹':
		return byte('0' + r - '⁰'), true
	}
	switch r {
	case '⁰':
		return '0', true
	case '¹':
		return '1', true
	case '²':
		return '2', true
	case '³':
		return '3', true
	}
	return 0, false
}

// withScriptDigits joins to ts[i] the sub- and superscript digits the
// tokenizer left out right after it, as the digits users type, and the
// word they join it to: "IC₅₀" is "IC50", "H₂O₂" "H2O2", "Ca²⁺" "Ca2".
func withScriptDigits(ts analysis.TokenStream, i int, input []byte) analysis.TokenStream {
	t := ts[i]
	for {
		end := t.End
		for end < len(input) {
			r, size := utf8.DecodeRune(input[end:])
			d, ok := scriptDigit(r)
			if !ok {
				break
			}
			t.Term = append(t.Term, d)
			end += size
		}
		if end == t.End {
			return ts
		}
		t.End = end
		// A word right after the digits is the same name: the "O" of "H₂O₂".
		if i+1 < len(ts) && ts[i+1].Start == end {
			t.Term = append(t.Term, ts[i+1].Term...)
			t.End = ts[i+1].End
			ts = dropToken(ts, i+1)
			continue
		}
		return ts
	}
}

// dropToken removes ts[i]; the tokens after it move up one position, so
// phrases still match across the place it held.
func dropToken(ts analysis.TokenStream, i int) analysis.TokenStream {
	ts = slices.Delete(ts, i, i+1)
	for _, later := range ts[i:] {
		later.Position--
	}
	return ts
}

// isPossessiveS reports whether t is the s of a possessive the tokenizer
// cut from its word: an "s" right after an apostrophe that follows a
// letter or digit ("GPT-4's", "1990’s").
func isPossessiveS(input []byte, t *analysis.Token) bool {
	if string(t.Term) != "s" && string(t.Term) != "S" {
		return false
	}
	before := input[:t.Start]
	for _, apostrophe := range [][]byte{[]byte("'"), []byte("’")} {
		if rest, ok := bytes.CutSuffix(before, apostrophe); ok {
			r, _ := utf8.DecodeLastRune(rest)
			return unicode.IsLetter(r) || unicode.IsDigit(r)
		}
	}
	return false
}

func init() {
	err := registry.RegisterTokenizer(tokenizerText, func(map[string]any, *registry.Cache) (analysis.Tokenizer, error) {
		return wordTokenizer{bleveunicode.NewUnicodeTokenizer()}, nil
	})
	if err != nil {
		panic(err) // a name clash with bleve's own: a programming error
	}
}
