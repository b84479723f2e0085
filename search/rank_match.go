package search

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	porterstemmer "github.com/blevesearch/go-porterstemmer"
	"github.com/paperbot/paperbot/search/query"
)

// hyphenHits appends to hits the field's words of two parts joined by a
// hyphen ("pre-training", not "state-of-the-art") that are a group's word
// typed whole, for the groups not found, and marks them found.
func (mt *matcher) hyphenHits(hits []hit, found []bool, toks []dtoken, text string) []hit {
	want := false
	for gi, w := range mt.whole {
		want = want || w != "" && !found[gi]
	}
	if !want {
		return hits
	}
	for i := 0; i+1 < len(toks); i++ {
		a, b := toks[i], toks[i+1]
		if sep := hyphenAt(text, int(a.end)); sep == 0 || b.start != a.end+int32(sep) || b.pos != a.pos+1 {
			continue
		}
		first := text[a.start:a.end]
		stem := ""
		for gi, w := range mt.whole {
			// Porter changes the end of a word, not its start: most
			// hyphenated words are told apart before they are stemmed.
			if w == "" || found[gi] || len(w) <= len(first) || !strings.EqualFold(w[:len(first)], first) {
				continue
			}
			if stem == "" {
				if !lettersOnly(first) || !lettersOnly(text[b.start:b.end]) ||
					b.end+1 < int32(len(text)) && hyphenAt(text, int(b.end)) > 0 || a.start > 0 && hyphenBefore(text, int(a.start)) {
					break
				}
				stem = porterstemmer.StemString(strings.ToLower(first + text[b.start:b.end]))
			}
			if stem == w {
				hits = append(hits, hit{gi, altExact.credit(), int(a.start), int(b.end), true})
				found[gi] = true
			}
		}
	}
	return hits
}

// lettersOnly reports whether w is letters only.
func lettersOnly(w string) bool {
	return w != "" && !strings.ContainsFunc(w, func(r rune) bool { return !unicode.IsLetter(r) })
}

// hit is a matched query group in one place of a field.
type hit struct {
	group      int
	credit     float64
	start, end int  // byte range in the field's text
	exact      bool // what the user typed, not an association
}

// Bounds is h's byte range, for snippet.Make.
func (h hit) Bounds() (start, end int) { return h.start, h.end }

// docMatch says how a paper matches a query's groups.
type docMatch struct {
	credit  []float64 // per group: best credit anywhere (title, abstract, authors)
	inTitle []bool    // per group: matched in the title
	tf      []float64 // per group: credit-weighted hits, title hits twice
	// via is, per group matched only through an association (acronym, long
	// form, synonym, spelling, typo fix), the paper's own words for it.
	via      []string
	abstract []hit   // hits in the abstract, in text order
	coverage float64 // idf-weighted share of the query's groups matched, 0..1
}

// camelCredit is the credit of a word found inside a CamelCase compound
// ("prefill" in "SpecPrefill").
const camelCredit = 0.7

// matcher finds a query's groups in analysed text with one pass over the
// tokens; built once per query, then used on every candidate.
type matcher struct {
	groups []group
	// byStem maps a stem to the alternatives it completes (single words) or
	// starts (phrases).
	byStem map[string][]altRef
	// camel lists, per group, the single exact words to look for inside
	// CamelCase compounds when nothing else of the group matched.
	camel [][]string
	// typed is, per group, the word as typed, lower-cased, when it is one
	// word of letters and digits; "" otherwise. Two of them side by side
	// may be one CamelCase word in a paper ("user id": "userID").
	typed []string
	// whole is, per group typed as one word, its stem; "" otherwise. A
	// paper may write the word with a hyphen ("pre-training").
	whole []string
	// grams are the query's 3-grams, for the answer scorer; nil when unset.
	grams *queryGrams
	// quantity: the question asks how much or how many, answered by a
	// sentence with the number.
	quantity bool
	// defines: the question asks what an acronym stands for, answered by
	// the sentence that spells it out.
	defines bool
	// pairIDF is, per pair of neighbouring groups, the idf of the two
	// written next to each other (pairIDFs); nil when unset.
	pairIDF []float64
}

type altRef struct {
	group   int
	credit  float64
	exact   bool
	terms   []string // a phrase's terms, nil for a single word
	acronym string   // alt.acronym
	form    string   // alt.form
	whole   bool     // alt.whole
}

// wordCredit is how much a paper's word with r's stem counts, and whether
// it counts at all: as an acronym typed, "CLIP" fully, "clipping" half,
// "dL" (a unit, for DL) and "CLS" (another acronym, for CL) not at all.
// Either way round: "eGFR" typed (a kidney's filtration rate) is no EGFR
// (a receptor), "mAP" no MAP, "cAMP" no CAMP.
func (r altRef) wordCredit(word string) (float64, bool) {
	switch {
	case r.acronym == "":
		return r.credit, true
	case otherCapitals(word, r.acronym), otherCapitals(r.acronym, word):
		return 0, false
	case sameWord(word, r.acronym):
		return r.credit, true
	case query.TypedInCapitals(word), !r.exact, mixedCase(r.acronym):
		// Another acronym; a word in lower case for an acronym the user did
		// not type: "self-play fine-tuning" (SPIN) is no "pen spinning"; or
		// for a name in mixed case: "RoPE" is no "Roping".
		return 0, false
	}
	return r.credit * otherFormCredit, true
}

// mixedCase reports whether w has a capital after a lower-case letter
// ("RoPE", "LoRA", "mRNA"): a name written so, not a word.
func mixedCase(w string) bool {
	lower := false
	for _, r := range w {
		switch {
		case unicode.IsLower(r):
			lower = true
		case unicode.IsUpper(r) && lower:
			return true
		}
	}
	return false
}

func newMatcher(groups []group) *matcher {
	m := &matcher{groups: groups, byStem: map[string][]altRef{}, camel: make([][]string, len(groups)), typed: make([]string, len(groups)),
		whole: make([]string, len(groups))}
	for gi, g := range groups {
		if oneWord(g.surface) {
			m.typed[gi] = strings.ToLower(g.surface)
			if a := g.alts[0]; a.kind == altExact && len(a.terms) == 1 && lettersOnly(g.surface) {
				m.whole[gi] = a.terms[0]
			}
		}
		if g.isMeta() {
			// A year or venue is the paper's, not its text's: "ICLR" and
			// "2024" in an abstract are mostly a link to its code.
			continue
		}
		for _, a := range g.alts {
			w := a.words()
			ref := altRef{group: gi, credit: a.matchCredit(), exact: a.kind == altExact && !a.standsFor, acronym: a.acronym, form: a.form,
				whole: a.whole}
			if len(w) > 1 {
				ref.terms = a.terms
			}
			m.byStem[w[0]] = append(m.byStem[w[0]], ref)
			if a.kind == altExact && len(w) == 1 && utf8.RuneCountInString(w[0]) >= 4 {
				m.camel[gi] = append(m.camel[gi], w[0])
			}
		}
	}
	return m
}

// match computes how paper p matches the query.
func (s *state) match(p *record, mt *matcher) docMatch {
	d := s.doc(p)
	groups := mt.groups
	m := docMatch{credit: make([]float64, len(groups)), inTitle: make([]bool, len(groups)), tf: make([]float64, len(groups)),
		via: make([]string, len(groups))}
	exact := make([]bool, len(groups))
	note := func(h hit, text string) {
		if h.exact {
			exact[h.group] = true
		} else if m.via[h.group] == "" {
			m.via[h.group] = text[h.start:h.end]
		}
	}
	title := titleText(&p.Paper)
	for _, h := range mt.hits(d.title, title) {
		note(h, title)
		m.credit[h.group] = max(m.credit[h.group], h.credit)
		m.inTitle[h.group] = true
		m.tf[h.group] += 2 * h.credit
	}
	m.abstract = mt.hits(d.abstract, p.Abstract)
	for _, h := range m.abstract {
		note(h, p.Abstract)
		m.credit[h.group] = max(m.credit[h.group], h.credit)
		m.tf[h.group] += h.credit
	}
	for gi := range groups {
		if exact[gi] {
			m.via[gi] = ""
		}
	}
	for gi, g := range groups {
		if g.isMeta() && s.metaMatch(&p.Paper, g) {
			// Like a title word: "mamba 2024" puts 2024's papers first.
			m.credit[gi] = 1
			m.tf[gi] += 2
		}
		for _, n := range g.names {
			m.credit[gi] = max(m.credit[gi], d.names[n])
			// An author's name weighs like a title word in the ranking, so
			// "Yoshua Bengio" puts his papers above those of any Bengio.
			m.tf[gi] += 2 * d.names[n]
		}
	}
	s.creditFullNames(p, groups, &m)
	m.coverage = coverage(groups, m.credit)
	return m
}

// creditFullNames reads two name groups side by side that are together
// some author's name ("Di He") as that one author: a paper with them as
// its author's first name and surname gets both in full, one where they
// are two authors' ("Qiwei Di", "Jiafan He") half the first. Surnames
// typed together that are nobody's full name ("Bengio Hinton") are left.
func (s *state) creditFullNames(p *record, groups []group, m *docMatch) {
	for gi := 0; gi+1 < len(groups); gi++ {
		a, b := groups[gi].names, groups[gi+1].names
		if len(a) == 0 || len(b) == 0 || m.credit[gi] == 0 || m.credit[gi+1] == 0 || !s.fullName(a, b) {
			continue
		}
		if s.authorNamed(p, append(append([]string(nil), a...), b...)) {
			m.credit[gi], m.credit[gi+1] = 1, 1
			m.tf[gi], m.tf[gi+1] = max(m.tf[gi], 2), max(m.tf[gi+1], 2)
		} else {
			m.credit[gi] *= 0.5
			m.tf[gi] *= 0.5
		}
	}
}

// authorNamed reports whether some author of p has the name tokens terms
// in a row.
func (s *state) authorNamed(p *record, terms []string) bool {
	for _, a := range p.Authors {
		ts := s.an.name.Analyze([]byte(a))
		for i := 0; i+len(terms) <= len(ts); i++ {
			j := 0
			for j < len(terms) && string(ts[i+j].Term) == terms[j] {
				j++
			}
			if j == len(terms) {
				return true
			}
		}
	}
	return false
}

// coverage is the idf-weighted mean of per-group credits.
func coverage(groups []group, credit []float64) float64 {
	return coverageOf(groups, credit, func(group) bool { return true })
}

// coverageOf is coverage over the groups that count, a set of
// alternatives ("weather or climate") weighed and credited as one thing
// asked for (eitherCredit).
func coverageOf(groups []group, typedCredit []float64, counts func(group) bool) float64 {
	weights, credit := eitherCredit(groups, typedCredit)
	var got, total float64
	for gi, g := range groups {
		if counts(g) {
			w := weightOf(groups, weights, gi)
			total += w
			got += w * credit[gi]
		}
	}
	if total == 0 {
		return 0
	}
	return got / total
}

// hits finds every occurrence of the query's alternatives in one analysed
// field (text is the field's text), in text order.
func (mt *matcher) hits(toks []dtoken, text string) []hit {
	var hits []hit
	found := make([]bool, len(mt.groups))
	var phraseEnd []int32 // per group, where its last phrase hit ends; made at the first
	for j, t := range toks {
		for _, r := range mt.byStem[t.stem] {
			if r.terms == nil {
				word := text[t.start:t.end]
				// A long form's word alone, not inside the long form.
				if r.form != "" && (phraseEnd != nil && t.start < phraseEnd[r.group] || !sameForm(word, r.form)) {
					continue
				}
				credit, ok := r.wordCredit(word)
				if !ok {
					continue
				}
				if r.exact && r.acronym == "" && mt.typed[r.group] != "" && !sameWordForms(mt.typed[r.group], word, t.stem) {
					continue // "general" for "generative": one stem, another word
				}
				hits = append(hits, hit{r.group, credit, int(t.start), int(t.end), r.exact})
				found[r.group] = true
				if r.whole {
					hits = mt.partHits(hits, found, r.group, hits[len(hits)-1])
				}
			} else if end, ok := phraseAt(toks, j, r.terms); ok {
				hits = append(hits, hit{r.group, r.credit, int(t.start), int(toks[end].end), r.exact})
				found[r.group] = true
				if phraseEnd == nil {
					phraseEnd = make([]int32, len(mt.groups))
				}
				phraseEnd[r.group] = toks[end].end
			}
		}
	}
	// Only when nothing matched exactly: the word inside a compound name.
	for gi, words := range mt.camel {
		if found[gi] {
			continue
		}
		for _, w := range words {
			for _, t := range toks {
				if t.camel && (camelContains(text[t.start:t.end], w) || gi+1 < len(mt.camel) && camelSpells(text[t.start:t.end], w, mt.camel[gi+1])) {
					hits = append(hits, hit{gi, altExact.credit() * camelCredit, int(t.start), int(t.end), true})
				}
			}
		}
	}
	// A word typed whole that a paper hyphenates ("pretraining":
	// "pre-training"). The reverse, a typed "pre-training" also searched
	// whole, lost ICLR keywords on train (nDCG@10 0.578 to 0.577).
	hits = mt.hyphenHits(hits, found, toks, text)
	// Two words typed apart that a paper writes as one CamelCase word
	// ("user id": "userID", "time stamp": "TimeStamp"), however short, in
	// the singular or plural.
	for gi := 0; gi+1 < len(mt.typed); gi++ {
		if found[gi] && found[gi+1] {
			continue
		}
		for _, t := range toks {
			if t.camel && mt.typedJoin(text[t.start:t.end], gi) {
				for _, g := range [2]int{gi, gi + 1} {
					if !found[g] {
						hits = append(hits, hit{g, altExact.credit() * camelCredit, int(t.start), int(t.end), true})
					}
				}
			}
		}
	}
	sortHits(hits)
	return hits
}

// partHits appends to hits, for the identifier that group gi starts and h
// found whole ("IL6", "IL-1β" for a typed "IL-1b"), a hit of each of its
// other parts at the same place: the paper has them all.
func (mt *matcher) partHits(hits []hit, found []bool, gi int, h hit) []hit {
	ident := mt.groups[gi].ident
	for gj := gi + 1; gj < len(mt.groups) && mt.groups[gj].ident == ident; gj++ {
		h.group = gj
		hits = append(hits, h)
		found[gj] = true
	}
	return hits
}

// typedJoin reports whether word, a CamelCase word, is the query's words gi
// and gi+1 written together, in the singular or plural ("userID", "userIDs").
func (mt *matcher) typedJoin(word string, gi int) bool {
	if gi+1 >= len(mt.typed) || mt.typed[gi] == "" || mt.typed[gi+1] == "" {
		return false
	}
	joined, w := mt.typed[gi]+mt.typed[gi+1], strings.ToLower(word)
	return w == joined || w+"s" == joined || w == joined+"s"
}

// oneWord reports whether s is one word of letters and digits.
func oneWord(s string) bool {
	return s != "" && !strings.ContainsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// phraseAt reports whether the phrase terms (with "" gaps) start at toks[j],
// and returns the index of its last token.
func phraseAt(toks []dtoken, j int, terms []string) (int, bool) {
	first := 0
	for first < len(terms) && terms[first] == "" {
		first++
	}
	if first == len(terms) || toks[j].stem != terms[first] {
		return 0, false
	}
	base := toks[j].pos - int32(first)
	last, k := j, j+1
	for ti := first + 1; ti < len(terms); ti++ {
		if terms[ti] == "" {
			continue
		}
		want := base + int32(ti)
		for k < len(toks) && toks[k].pos < want {
			k++
		}
		// Several tokens may share a position (an identifier and its
		// first part): any of them may continue the phrase.
		for k < len(toks) && toks[k].pos == want && toks[k].stem != terms[ti] {
			k++
		}
		if k == len(toks) || toks[k].pos != want {
			return 0, false
		}
		last = k
	}
	return last, true
}

// isCamel reports whether word has a capital after its first letter that
// starts a part: "SpecPrefill", "LaCache", "4D-Var" but not "LLM" or "Graph".
func isCamel(word string) bool {
	prev := rune(0)
	for i, r := range word {
		if i > 0 && unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev) || prev == '-') {
			return true
		}
		prev = r
	}
	return false
}

// camelContains reports whether stem starts a CamelCase part of word after
// its first letter: "prefil" in "SpecPrefill", "cach" in "LaCache".
func camelContains(word, stem string) bool {
	prev := rune(0)
	for i, r := range word {
		if i > 0 && unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev) || prev == '-') {
			if len(word)-i >= len(stem) && strings.EqualFold(word[i:i+len(stem)], stem) {
				return true
			}
		}
		prev = r
	}
	return false
}

// camelSpells reports whether word is a CamelCase compound that starts with
// stem and has one of next, the words after it in the query, as a later
// part: "flash attention" spells "FlashAttention".
func camelSpells(word, stem string, next []string) bool {
	if len(word) < len(stem) || !strings.EqualFold(word[:len(stem)], stem) {
		return false
	}
	return slices.ContainsFunc(next, func(n string) bool { return camelContains(word, n) })
}

// sortHits orders hits by position, longer first at the same start.
func sortHits(hs []hit) {
	slices.SortStableFunc(hs, func(a, b hit) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return b.end - a.end
	})
}
