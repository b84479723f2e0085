package query

import (
	"strings"

	"github.com/paperbot/paperbot/search/lexicon"
)

// SpellingVariant returns the other spelling of a British or American word
// ("generalisation" <-> "generalization", "behaviour" <-> "behavior",
// "fibre" <-> "fiber", "dialogue" <-> "dialog", "ischaemic" <-> "ischemic"),
// or "": the Porter stemmer keeps them apart. It can invent words ("noise"
// -> "noize", "factor" -> "factour"); callers keep a variant only if the
// corpus has it.
func SpellingVariant(w string) string {
	lw := strings.ToLower(w)
	if v, ok := spellingWords[lw]; ok {
		return v
	}
	for _, r := range spellingSuffixes {
		for _, end := range r.ends {
			if strings.HasSuffix(lw, r.from+end) && len(lw) >= len(r.from+end)+r.stem {
				return lw[:len(lw)-len(r.from+end)] + r.to + end
			}
		}
	}
	for _, r := range spellingStarts {
		if strings.HasPrefix(lw, r[0]) {
			return r[1] + lw[len(r[0]):]
		}
	}
	return ""
}

// spellingSuffixes turn one spelling's ending into the other's, before any
// of ends; stem is the fewest letters that must come before.
var spellingSuffixes = []struct {
	from, to string
	ends     []string
	stem     int
}{
	{"is", "iz", []string{"ation", "ations", "e", "ed", "es", "ing", "er", "ers"}, 3},
	{"iz", "is", []string{"ation", "ations", "e", "ed", "es", "ing", "er", "ers"}, 3},
	{"ys", "yz", []string{"e", "ed", "es", "ing", "er", "ers"}, 3},
	{"yz", "ys", []string{"e", "ed", "es", "ing", "er", "ers"}, 3},
	{"our", "or", []string{"", "s", "ed", "ing", "al", "ally", "hood", "hoods", "ite", "ites", "able", "ful", "less"}, 3},
	{"or", "our", []string{"", "s", "ed", "ing", "al", "ally", "hood", "hoods", "ite", "ites", "able", "ful", "less"}, 3},
	{"tre", "ter", []string{"", "s", "d"}, 2},
	{"bre", "ber", []string{"", "s"}, 2},
	{"ogue", "og", []string{"", "s"}, 3},
	{"og", "ogue", []string{"", "s"}, 3},
	{"aem", "em", []string{"ia", "ias", "ic"}, 2},
	{"em", "aem", []string{"ia", "ias", "ic"}, 3},
}

// spellingStarts are British and American beginnings of medical words.
var spellingStarts = [][2]string{
	{"haem", "hem"}, {"hem", "haem"}, {"paed", "ped"}, {"pediatr", "paediatr"},
	{"oesophag", "esophag"}, {"esophag", "oesophag"}, {"oestr", "estr"}, {"estrogen", "oestrogen"},
	{"foet", "fet"}, {"fetal", "foetal"}, {"fetus", "foetus"}, {"oedem", "edem"}, {"edema", "oedema"},
	{"diarrhoe", "diarrhe"}, {"diarrhe", "diarrhoe"}, {"orthopaed", "orthoped"}, {"orthoped", "orthopaed"},
}

// spellingWords are pairs no ending rule covers.
var spellingWords = lexicon.Pairs("spelling", "means:")
