package search

import "github.com/blevesearch/bleve/v2/analysis"

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
