package search

import (
	_ "embed"
	"strings"
	"unicode"
)

// acronymsTSV is the curated dictionary of the field's common acronyms (ML,
// NLP, vision, biology, chemistry, statistics, systems): ACRONYM<TAB>long
// form a line, "#" comments. It lets an acronym the corpus never spells out
// find its expansion, and the reverse.
//
//go:embed acronyms.tsv
var acronymsTSV string

// curatedCount is a dictionary pair's weight among a corpus's own
// definitions: below any the corpus mines, whose meaning in this corpus is
// better evidence.
const curatedCount = 1

// curatedAcronyms parses acronymsTSV.
func curatedAcronyms() []acronymPair {
	var out []acronymPair
	for _, line := range strings.Split(acronymsTSV, "\n") {
		short, long, ok := strings.Cut(strings.TrimSpace(line), "\t")
		if !ok || strings.HasPrefix(short, "#") {
			continue
		}
		out = append(out, acronymPair{short: strings.TrimSpace(short), long: strings.TrimSpace(long), count: curatedCount, curated: true})
	}
	return out
}

// expandsAsTyped reports whether a curated acronym applies to the word as
// the user typed it: short acronyms that are also English words ("MAP",
// "PET", "SAM") expand only when typed with a capital or digit, so "map"
// and "pet" stay words.
func expandsAsTyped(e expansion, surface string) bool {
	if otherCapitals(e.short, surface) || otherCapitals(surface, e.short) {
		return false // "EGFR" is not the eGFR of kidney function
	}
	if !e.curated || len([]rune(e.acronym)) >= 4 {
		return true
	}
	return strings.IndexFunc(surface, func(r rune) bool { return unicode.IsUpper(r) || unicode.IsDigit(r) }) >= 0
}
