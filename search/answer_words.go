package search

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/paperbot/paperbot/search/query"
)

// missingMaxWords is the most words (groups) a query may have for the
// words its papers lack to be named.
const missingMaxWords = 4

// missing lists, as typed, the query's words that no paper of page has,
// neither as asked nor through an association: "legal" of "legal document
// summarization" over papers on summarizing other documents. Years, venues,
// names, words in most papers and the verb of "how do I …" are left out:
// they say little. So is every word of a long message ("… mostly
// memory-bound decode …"), where some are bound to be missing.
func (s *state) missing(page []candidate, mt *matcher) []string {
	if len(page) == 0 || len(mt.groups) > missingMaxWords {
		return nil
	}
	limit := s.ubiquitousLimit()
	var out []string
	for gi, g := range mt.groups {
		if g.isMeta() || len(g.names) > 0 || g.action || s.ubiquitous(g, limit) || functionWords[strings.ToLower(g.surface)] {
			continue
		}
		found := eitherFound(mt.groups, gi, func(j int) bool {
			return slices.ContainsFunc(page, func(c candidate) bool { return c.m.credit[j] > 0 })
		})
		word := g.surface
		if g.ident != "" {
			word = g.ident
		}
		if !found && !slices.Contains(out, word) {
			out = append(out, word)
		}
	}
	return out
}

// matchedAs says how a query word matched: as typed, or through an
// association in the paper's own words ("MLIP (machine-learned
// interatomic potentials)").
func matchedAs(surface, via string) string {
	if via == "" || strings.EqualFold(via, surface) {
		return surface
	}
	return surface + " (" + query.Excerpt(via) + ")"
}

// matchedWords lists the query words a paper matches, as the user typed
// them: an identifier the paper writes is one word ("IL-6", not "IL" and
// "6"), whatever stands between its parts there ("IL6", "IL 6").
func matchedWords(groups []group, m *docMatch, text string) []string {
	var out []string
	var key identKeys // text's letters and digits, made when an identifier needs them
	last := ""
	for gi, g := range groups {
		if m.credit[gi] == 0 {
			continue
		}
		if g.ident != "" && identMatched(groups, m, g.ident) {
			if g.ident == last {
				continue // its first part listed it
			}
			if key.writes(text, g.ident) {
				out, last = append(out, g.ident), g.ident
				continue
			}
		}
		out, last = append(out, matchedAs(g.surface, m.via[gi])), ""
	}
	return out
}

// identKeys are a text's letters and digits, lower-cased with nothing
// between, as written, with Greek letters as their initials and with them
// spelled out; each made when first needed.
type identKeys struct{ plain, initials, spelled string }

// writes reports whether text writes the identifier ident, whatever stands
// between its parts, a Greek letter as such, spelled out ("IL-1beta" for
// "IL-1β") or as its initial ("IL-1b").
func (k *identKeys) writes(text, ident string) bool {
	if k.plain == "" {
		k.plain = joinedKey(text)
	}
	want := joinedKey(ident)
	if strings.Contains(k.plain, want) {
		return true
	}
	if k.initials == "" {
		k.initials, k.spelled = greekAsInitials(k.plain), string(spellGreek([]byte(k.plain)))
	}
	return strings.Contains(k.initials, greekAsInitials(want)) || strings.Contains(k.spelled, string(spellGreek([]byte(want))))
}

// identMatched reports whether m matches every part of the identifier
// ident, each as typed rather than through an association.
func identMatched(groups []group, m *docMatch, ident string) bool {
	for gi, g := range groups {
		if g.ident == ident && (m.credit[gi] == 0 || matchedAs(g.surface, m.via[gi]) != g.surface) {
			return false
		}
	}
	return true
}

// joinedKey is s's letters and digits, lower-cased, with nothing between.
func joinedKey(s string) string { return strings.ReplaceAll(titleKey(s), " ", "") }

// wordsFound lists the query words a paper has apart, when it matches no
// group as asked: "process", "reward" and "models" far from each other
// are not the long form "process reward models", but they are why the
// paper is listed. A typed acronym the paper lacks shows the words of its
// long form it has: "SNN (spike … neural … networks)".
func (s *state) wordsFound(p *record, groups []group) []string {
	fields := s.fields(p)
	// find returns the paper's first word with stem that counts (counts).
	find := func(stem string, counts func(word string) bool) (string, bool) {
		for _, f := range fields {
			for _, t := range f.toks {
				if w := f.text[t.start:t.end]; t.stem == stem && counts(w) {
					return w, true
				}
			}
		}
		return "", false
	}
	var out []string
	for _, g := range groups {
		// A typed word counts as the matcher counts it: "Roping" is no RoPE.
		typed := altRef{acronym: g.alts[0].acronym, exact: true}
		found := false
		for _, t := range s.an.text.Analyze([]byte(g.surface)) {
			if w := g.surface[t.Start:t.End]; !slices.Contains(out, w) {
				if _, ok := find(string(t.Term), func(word string) bool { _, ok := typed.wordCredit(word); return ok }); ok {
					out, found = append(out, w), true
				}
			}
		}
		if found {
			continue
		}
		for _, a := range g.alts {
			if a.kind != altAcronym {
				continue
			}
			words := a.words()
			// The acronym itself as written (not "spinning" for SPIN); the
			// words of a long form in any case, but not as another acronym.
			counts := func(word string) bool { return !otherCapitals(word, a.acronym) }
			if len(words) == 1 {
				counts = func(word string) bool { return !otherCapitals(word, a.acronym) && sameWord(word, a.acronym) }
			}
			var apart []string
			for _, w := range words {
				if text, ok := find(w, counts); ok && !slices.Contains(apart, text) {
					apart = append(apart, text)
				}
			}
			if len(apart) > 0 {
				out = append(out, matchedAs(g.surface, wordsApart(apart)))
				break
			}
		}
	}
	return out
}

// wordsApart joins words found apart with ellipses, as many whole words as
// an excerpt holds: "generation … pre … training …", not "… training … …".
func wordsApart(words []string) string {
	joined := words[0]
	for _, w := range words[1:] {
		next := joined + " … " + w
		if utf8.RuneCountInString(next) > query.ExcerptRunes {
			return joined + " …"
		}
		joined = next
	}
	return joined
}
