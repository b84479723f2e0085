package search

import (
	"strings"

	"github.com/blevesearch/bleve/v2/analysis"
)

// synonymSets are words that stand in for each other in questions about
// papers. Kept small and hand-checked: each set must hold in every context
// of an ML abstract. Stemming already unifies inflections; sets also cover
// word families the Porter stemmer splits (discover/discovery).
var synonymSets = [][]string{
	{"fast", "faster", "fastest", "speed", "speedup", "accelerate", "acceleration", "quick", "quicker"},
	{"discover", "discovery", "discovering", "rediscover", "rediscovery"},
	{"reduce", "reduction", "lower", "decrease", "cut"},
	{"shrink", "compress", "compression", "condense"},
	{"cheap", "cheaper", "inexpensive", "low-cost"},
	{"improve", "improvement", "enhance", "boost"},
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

// spellingVariant returns the other spelling of a British/American -ise/-ize
// word ("generalisation" <-> "generalization"), or "". It can invent words
// ("noise" -> "noize"); callers keep a variant only if the corpus has it.
func spellingVariant(w string) string {
	lw := strings.ToLower(w)
	for _, suf := range []string{"isation", "isations", "ise", "ised", "ises", "ising", "iser", "isers"} {
		if strings.HasSuffix(lw, suf) && len(lw) > len(suf)+2 {
			return lw[:len(lw)-len(suf)] + "iz" + suf[2:]
		}
	}
	for _, suf := range []string{"ization", "izations", "ize", "ized", "izes", "izing", "izer", "izers"} {
		if strings.HasSuffix(lw, suf) && len(lw) > len(suf)+2 {
			return lw[:len(lw)-len(suf)] + "is" + suf[2:]
		}
	}
	return ""
}
