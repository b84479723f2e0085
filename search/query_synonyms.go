package search

import (
	"strings"

	"github.com/blevesearch/bleve/v2/analysis"

	"github.com/paperbot/paperbot/search/lexicon"
)

// synonymSets are words that stand in for each other in questions about
// papers. Kept small and hand-checked: each set must hold in every context
// of an ML abstract. Stemming already unifies inflections; sets also cover
// word families the Porter stemmer splits (speed/speedup). Sets that the
// meaning model and stemming made redundant were retired (discover,
// compress, cheap, improve): without them no train query ranked worse and
// two ranked better. Those left are still needed: without them train
// queries rank worse (reduction/lower, molecule/molecular, fast training)
// or tests fail ("harder" answered by "difficult", miR-17-92 found as a
// microRNA).
var synonymSets = [][]string{
	{"fast", "faster", "fastest", "speed", "speedup", "accelerate", "acceleration", "quick", "quicker"},
	{"reduce", "reduction", "lower", "decrease", "cut"},
	{"molecule", "molecular"},
	{"hard", "harder", "hardest", "difficult", "difficulty"},
	// The acronym list's one-word long forms cannot be long forms:
	// "miR-17-92" and "miRNAs" are microRNAs.
	{"microRNA", "microRNAs", "miRNA", "miRNAs", "miR"},
}

// synonyms maps a stem to the other stems of its sets.
type synonyms map[string][]string

func newSynonyms(a analysis.Analyzer) synonyms {
	s := synonyms{}
	for _, set := range synonymSets {
		var stems []string
		for _, w := range set {
			for _, t := range a.Analyze([]byte(w)) {
				stems = appendUnique(stems, string(t.Term))
			}
		}
		for _, x := range stems {
			for _, y := range stems {
				if x != y {
					s[x] = appendUnique(s[x], y)
				}
			}
		}
	}
	return s
}

func appendUnique(ss []string, s string) []string {
	for _, x := range ss {
		if x == s {
			return ss
		}
	}
	return append(ss, s)
}

// spellingVariant returns the other spelling of a British or American word
// ("generalisation" <-> "generalization", "behaviour" <-> "behavior",
// "fibre" <-> "fiber", "dialogue" <-> "dialog", "ischaemic" <-> "ischemic"),
// or "": the Porter stemmer keeps them apart. It can invent words ("noise"
// -> "noize", "factor" -> "factour"); callers keep a variant only if the
// corpus has it.
func spellingVariant(w string) string {
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
