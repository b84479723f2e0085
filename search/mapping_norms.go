package search

import (
	"strings"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/registry"
)

// Norms are written many ways: "ℓ₁" (TeX's \ell_1 as the corpus cleans
// it), "ℓ1", "l_1", "L1", "ℓ_∞", "L∞", "l_inf". The word tokenizer keeps
// some whole and cuts the subscript off others ("ℓ₁" is "ℓ"), so a search
// for "L1 regularization" missed the papers that wrote \ell_1. One key per
// norm ("l1", "l2", "lp", "linf") makes them the same word, in the index
// and in queries alike.

// isNormLetter reports whether a token is a norm's letter alone, maybe with
// the underscore of a subscript: "ℓ", "L", "l_".
func isNormLetter(term string) bool {
	term = strings.TrimSuffix(term, "_")
	return term == "ℓ" || term == "l" || term == "L"
}

// normIndices map the subscripts, superscripts and infinity sign written
// after a norm's letter to the index its key spells.
var normIndices = func() map[rune]string {
	m := map[rune]string{'∞': "inf", 'ₚ': "p"}
	for d, r := range []rune("₀₁₂₃₄₅₆₇₈₉") {
		m[r] = string(rune('0' + d))
	}
	for d, r := range []rune("⁰¹²³⁴⁵⁶⁷⁸⁹") {
		m[r] = string(rune('0' + d))
	}
	return m
}()

// normIndex maps a subscript, superscript or infinity sign to the index
// a key spells.
func normIndex(r rune) (string, bool) {
	idx, ok := normIndices[r]
	return idx, ok
}

type normsFilter struct{}

func (normsFilter) Filter(ts analysis.TokenStream) analysis.TokenStream {
	for _, t := range ts {
		if key, ok := normKey(string(t.Term)); ok {
			t.Term, t.KeyWord = []byte(key), true
		}
	}
	return ts
}

// normKey returns the key of a lower-cased norm token: "ℓ₁", "ℓ1", "l_1" and
// "l1" are "l1"; "ℓ_∞", "l∞", "l_inf", "linfty" are "linf"; "ℓₚ" and "ℓ_p"
// are "lp". ok is false for other tokens and for a key as typed.
func normKey(term string) (key string, ok bool) {
	rest, found := strings.CutPrefix(term, "ℓ")
	if !found {
		if rest, found = strings.CutPrefix(term, "l"); !found {
			return "", false
		}
	}
	switch rest = strings.TrimPrefix(rest, "_"); rest {
	case "inf", "infty", "infinity", "∞":
		key = "linf"
	case "p", "ₚ", "q":
		key = "l" + strings.ReplaceAll(rest, "ₚ", "p")
	default:
		var digits strings.Builder
		for _, r := range rest {
			if r >= '0' && r <= '9' {
				digits.WriteRune(r)
			} else if d, isDigit := normIndex(r); isDigit && d[0] >= '0' && d[0] <= '9' {
				digits.WriteString(d)
			} else {
				return "", false
			}
		}
		if digits.Len() == 0 || digits.Len() > 2 {
			return "", false
		}
		key = "l" + digits.String()
	}
	return key, key != term
}

// filterNorms gives a norm's token its key.
const filterNorms = "paper_norms"

func init() {
	err := registry.RegisterTokenFilter(filterNorms, func(map[string]any, *registry.Cache) (analysis.TokenFilter, error) {
		return normsFilter{}, nil
	})
	if err != nil {
		panic(err) // a name clash with bleve's own: a programming error
	}
}
