package search

import (
	_ "embed"
	"strings"
	"unicode"

	"github.com/paperbot/paperbot/search/english"
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

// expandsAsTyped reports whether an acronym applies to the word as the user
// typed it: short curated acronyms, and short ones the corpus defines that
// are also English words ("MAP", "PET", "FAR"), expand only when typed with
// a capital or digit, so "map", "pet" and "how far" stay words.
func expandsAsTyped(e expansion, surface string) bool {
	if otherCapitals(e.short, surface) || otherCapitals(surface, e.short) {
		return false // "EGFR" is not the eGFR of kidney function
	}
	if len([]rune(e.acronym)) >= 4 || !e.curated && !english.Known(strings.ToLower(surface)) {
		return true
	}
	return strings.IndexFunc(surface, func(r rune) bool { return unicode.IsUpper(r) || unicode.IsDigit(r) }) >= 0
}
