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
	if !spellsAcronym(surface, e.short) {
		return false // "ID" only shares its stem with "IDE", "RM" with "RMS"
	}
	if len([]rune(e.acronym)) >= 4 || !e.curated && !english.Known(strings.ToLower(surface)) {
		return true
	}
	return strings.IndexFunc(surface, func(r rune) bool { return unicode.IsUpper(r) || unicode.IsDigit(r) }) >= 0
}

// spellsAcronym reports whether the typed word is the acronym short, or its
// plural, or short is the typed word's plural ("LLMs", "llms" and "LLM"),
// whatever the hyphens ("GCSF" is G-CSF). Acronyms are looked up by stem,
// and Porter gives "IDE" and "ID" one stem, "RMS" and "RMs" another: a
// capital S belongs to the acronym ("SARS" is not SARs), a small one makes
// a plural.
func spellsAcronym(typed, short string) bool {
	return squashed(typed) == squashed(short) || pluralOf(typed, short) || pluralOf(short, typed)
}

// pluralOf reports whether word is acronym with a plural s, written small.
func pluralOf(word, acronym string) bool {
	return strings.HasSuffix(word, "s") && squashed(word) == squashed(acronym)+"s"
}
