package search

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/paperbot/paperbot/search/english"
	"github.com/paperbot/paperbot/search/lexicon"
	"github.com/paperbot/paperbot/search/query"
)

// altKind says how an alternative relates to what the user typed.
type altKind int

const (
	altExact    altKind = iota // the word or phrase itself, stemmed
	altAcronym                 // acronym for a long form, or the reverse
	altSpelling                // British/American spelling
	altSynonym                 // hand-kept synonym
	altFuzzy                   // typo correction
	altPart                    // a long form's distinctive word alone ("unlearning")
)

// ambiguousCredit is the credit of an acronym that has other meanings in
// the corpus.
const ambiguousCredit = 0.5

// partialCredit is the credit of what is left of a hyphenated word without
// its stop word ("shot" of "few-shot").
const partialCredit = 0.25

// otherFormCredit is the credit of a word that shares only its stem with
// an acronym typed in capitals ("clipping" for "CLIP").
const otherFormCredit = 0.5

// sameWord reports whether a paper's word is the acronym typed, with a
// capital in it ("CLIP", "Bert"; "art" is the word, not ART), with or
// without a plural s.
func sameWord(surface, acronym string) bool {
	if strings.IndexFunc(surface, unicode.IsUpper) < 0 {
		return false
	}
	acronym = strings.ToLower(acronym)
	typed := surface
	surface = squashed(surface) // as joined: "GPT-4" is the word GPT4
	base := strings.TrimSuffix(acronym, "s")
	if surface == acronym || surface == base {
		return true
	}
	// A plural's s is lower-case: "LNs" are LNs, "LNS" another acronym.
	return !strings.HasSuffix(typed, "S") && (surface == base+"s" || surface == base+"es")
}

// otherCapitals reports whether a paper's word starts in lower case and has
// a capital after, where the acronym starts with a capital: "dL" and "mL"
// are units, "eGFR" is not EGFR.
func otherCapitals(surface, acronym string) bool {
	first, _ := utf8.DecodeRuneInString(surface)
	a, _ := utf8.DecodeRuneInString(acronym)
	return unicode.IsUpper(a) && unicode.IsLower(first) && strings.IndexFunc(surface, unicode.IsUpper) > 0
}

// credit is how much a match of this kind counts towards query coverage.
func (k altKind) credit() float64 {
	switch k {
	case altSynonym:
		return 0.8
	case altFuzzy:
		return 0.85
	case altPart:
		return partWordCredit
	}
	return 1
}

// boost weights the kind in the bleve query.
func (k altKind) boost() float64 {
	switch k {
	case altAcronym:
		return 0.9
	case altSynonym:
		return 0.4
	case altFuzzy:
		return 0.6
	case altPart:
		return partWordCredit
	}
	return 1
}

// alt is one way a query term can appear in a paper.
type alt struct {
	kind  altKind
	terms []string // stems by position, "" marks a removed stop word; one entry for a single term
	// credit overrides kind.credit() when not 0 (typo corrections).
	credit float64
	// titleOnly: retrieve by titles only; every word is so common that
	// scanning abstracts for it costs more than it finds (the long form of
	// a frequent acronym). Re-ranking still credits it in abstracts.
	titleOnly bool
	// quoted: the user asked for this exact phrase. Other multi-word
	// alternatives (long forms) are retrieved as plain conjunctions, which
	// is much cheaper on common words; re-ranking still checks adjacency.
	quoted bool
	// standsFor: the word is what the typed one stands for ("interp":
	// interpretability), so a card shows the paper's word beside it.
	standsFor bool
	// acronym is the word as typed when it was typed in capitals ("CLIP"),
	// or the acronym of a long form as papers write it: a paper's word
	// that only shares its stem ("clipping") is another word, and counts
	// for less; one in other capitals ("dL", a decilitre, for DL) counts
	// not at all.
	acronym string
	// form is the word as typed when a paper must write that word, not just
	// its stem: a long form's distinctive word alone ("augmentation" of
	// "data augmentation") stands for it, "augmented" does not.
	form string
	// whole: the identifier the word starts, joined ("il6" of "IL-6"). A
	// paper that writes it so has the identifier's other parts too.
	whole bool
}

// sameForm reports whether a paper's word is the word typed, in any case,
// or its plural or singular.
func sameForm(word, typed string) bool {
	w, t := strings.ToLower(word), strings.ToLower(typed)
	return w == t || w == t+"s" || w+"s" == t || w == t+"es" || w+"es" == t
}

// matchCredit is how much finding a counts towards coverage.
func (a alt) matchCredit() float64 {
	if a.credit > 0 {
		return a.credit
	}
	return a.kind.credit()
}

// words returns the non-gap stems of a.
func (a alt) words() []string {
	if len(a.terms) == 1 {
		return a.terms
	}
	w := make([]string, 0, len(a.terms))
	for _, t := range a.terms {
		if t != "" {
			w = append(w, t)
		}
	}
	return w
}

// group is one thing the user asked for: a word or phrase with its
// alternatives (acronyms, synonyms, spellings, corrections). A paper matches
// the group when it contains any alternative.
type group struct {
	surface string // as typed, for Result.Matched
	ident   string // the identifier surface is part of, as typed ("IL-6" of "IL"), if any
	alts    []alt
	names   []string // author-name tokens to find in the authors field, if the word is a name
	weight  float64  // idf-based importance within the query
	link    bool     // a pasted link: found whole or not at all
	// longForm is how many typed words a long form of the acronym
	// dictionary took ("knowledge base question answering": 4); 0 if none.
	longForm int
	// years are the years the word names ("2024"; "since 2023": 2023 on),
	// also matched in papers' years; zero when it names none.
	years query.YearClause
	venue string // the venue token the word names ("iclr"), also matched in venues
	// apart: a stop word, or a word that is no topic, stood between this
	// group and the one before, or it is the first.
	apart bool
	// action: the verb of "how do I …" (qtoken.action).
	action bool
	// orBefore: "or" ("vs", "and" after "compare") stood between this group
	// and the one before, each next to it ("weather or climate"); either
	// marks the groups so linked with one number above 0 (see linkEither).
	orBefore bool
	either   int
	side     int // which alternative of its set, from 0
}

// qtoken is one analysed query word.
type qtoken struct {
	stem, surface string
	joined        string // the identifier this word starts, joined ("gcsf"), if any
	ident         string // the identifier this word is part of, as typed ("G-CSF"), if any
	// gapBefore: a stop word stood between this word and the one before.
	gapBefore bool
	// partial: the word is what the analyzer left of a hyphenated word
	// whose stop word told it apart ("shot" of "few-shot").
	partial bool
	// typedStem is the stem as typed when stem stands for it ("net" of
	// "neural nets", searched as "network"); "" when stem is as typed.
	typedStem string
	// clipped: the typed word is a clipping ("interp"), stem the word it
	// stands for; as typed it may be another word ("Det-CGD") and counts
	// as a synonym.
	clipped bool
	// action: the verb of "how do I …" ("stop" of "how do I stop reward
	// hacking?"), what the asker wants to do rather than a topic.
	action bool
	// yearSpan is the span of years the words around a year make of it
	// ("since 2023", "between 2017 and 2019"); zero for the year alone.
	yearSpan query.YearClause
	// orBefore: the word typed before this one was "or" (group.orBefore),
	// and the one before that a word searched for.
	orBefore bool
}

// textGroups turns the free text of q into groups: meta words of questions
// are dropped, acronyms and long forms are expanded both ways, typos are
// corrected from the corpus vocabulary.
func (s *state) textGroups(q *query.Parsed) []group { return s.textGroupsOf(q, false) }

// textGroupsOf is textGroups; with wordsApart, long forms of three or more
// words are grouped as the shorter long forms they are made of (see
// state.search).
func (s *state) textGroupsOf(q *query.Parsed, wordsApart bool) []group {
	words := s.stopWordCompounds(q.Text)
	var groups []group
	var run []qtoken
	gap := false
	flush := func() {
		groups = append(groups, s.wordGroups(run, wordsApart)...)
		run = nil
	}
	var span query.YearClause // for the next year
	spanYears := 0            // how many years still take span
	orAt, lastWord := -1, -1  // where "or" and the last word searched for were typed
	for i, c := range words {
		if !c.Phrase {
			if w := query.BareWord(c.Text); w == "or" || w == "vs" || w == "versus" || w == "and" && query.ComparedAt(words, i) {
				orAt = i
			}
		}
		orBefore := orAt == i-1 && lastWord == i-2
		if s.nameMarker(words, i) {
			continue
		}
		if sp, n := query.YearSpanAt(words, i); n > 0 {
			// "since 2023", "between 2017 and 2019": the years are a
			// span, "since" and "between" no topic.
			span, spanYears = sp, n
			continue
		}
		text := c.Text
		link, isLink := query.LinkOf(text)
		if isLink && !c.Phrase {
			// A link is looked for whole, as a phrase: its "https" and
			// "abs" are in every link, they say nothing of a paper.
			c.Phrase, text = true, link
		}
		if c.Phrase {
			flush()
			if g, ok := s.phraseGroup(text); ok {
				g.link, g.orBefore = isLink, orBefore
				groups = append(groups, g)
				lastWord = i
			}
			continue
		}
		action := query.HowToVerbAt(words, i)
		if query.MetaWordAt(words, i, q.Question) || action && !s.knownText(c.Text) {
			continue
		}
		cs := compounds(c.Text)
		toks := s.an.text.Analyze([]byte(c.Text))
		if surname := withoutPossessive(c.Text); len(toks) == 0 && len(run) > 0 && !gap && s.stopWordSurname(run[len(run)-1].surface, surname) {
			// "Kaiming He", "Kaiming He's papers": the surname is a stop
			// word to the text analyzer, and a name to look for.
			run = append(run, qtoken{stem: strings.ToLower(surname), surface: surname})
			lastWord = i
			continue
		}
		if len(toks) == 0 {
			gap = true // a stop word
		}
		for k, t := range toks {
			qt := qtoken{stem: string(t.Term), surface: c.Text[t.Start:t.End], action: action && len(toks) == 1,
				gapBefore: gap || (k > 0 && t.Position > toks[k-1].Position+1), orBefore: orBefore && k == 0}
			lastWord = i
			if spanYears > 0 && query.YearWord(qt.surface) != 0 {
				qt.yearSpan = span
				spanYears--
			}
			gap = false
			for _, cp := range cs {
				if t.Start >= cp.start && t.End <= cp.end {
					qt.ident = c.Text[cp.start:cp.end]
				}
				if t.Start == cp.start {
					qt.joined = cp.joined // the identifier's first part carries it whole
				} else if t.Start > cp.start && t.End <= cp.end && (k == 0 || toks[k-1].Start < cp.start) {
					// The first part was a stop word ("SO" of "SO(3)"): the
					// next one carries the identifier, and a bare number
					// left of it is no topic of its own.
					qt.joined, qt.surface = cp.joined, c.Text[cp.start:cp.end]
					if stem, ok := s.joinedStem(cp.joined); ok && isNumber(qt.stem) {
						qt.stem, qt.joined = stem, ""
					} else {
						qt.partial = !c.Apart
					}
				}
			}
			prev := ""
			if len(run) > 0 && !qt.gapBefore {
				prev = run[len(run)-1].stem
			}
			if means := query.ShorthandAfter(prev, qt.stem); means != "" {
				// Found as typed and as what it means, long form and
				// all ("spiking neural nets": SNN).
				qt.stem, qt.typedStem = means, qt.stem
			} else if full := query.Clipping(qt.surface); full != "" && len(toks) == 1 {
				if ft := s.an.text.Analyze([]byte(full)); len(ft) == 1 {
					qt.stem, qt.typedStem, qt.clipped = string(ft[0].Term), qt.stem, true
				}
			}
			run = append(run, qt)
		}
	}
	flush()
	s.namesBesideNames(groups)
	return linkEither(weighKinds(mergeGroups(groups)))
}

// functionWords are prepositions and adverbs that bleve's English stop
// list keeps: searched (a paper "without negative samples" is closer to
// what was asked), but no topic that a paper could lack.
var functionWords = lexicon.Words("function", "group-or-abstract")

// withoutPossessive is w without an ending "'s" ("He's" of "Kaiming He's
// papers").
func withoutPossessive(w string) string {
	return strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
}

// knownText reports whether some paper has a word of text.
func (s *state) knownText(text string) bool {
	for _, t := range s.an.text.Analyze([]byte(text)) {
		if s.vocab.has(string(t.Term)) {
			return true
		}
	}
	return false
}

// stopWordCompounds writes with hyphens the words typed apart that papers
// write as one hyphenated word led by a stop word: "few shot" is
// "few-shot", not "shot" (the analyzer drops "few", and zero-shot papers
// came first), "out of distribution" is "out-of-distribution". The index
// has such words whole, and is asked whether any paper writes them.
func (s *state) stopWordCompounds(text []query.Clause) []query.Clause {
	var out []query.Clause
	for i := 0; i < len(text); i++ {
		c := text[i]
		if !c.Phrase && s.stopWord(c.Text) {
			for n := min(3, len(text)-i); n >= 2; n-- {
				if w, ok := s.hyphenatedWord(text[i : i+n]); ok {
					c.Text, c.Apart = w, true
					i += n - 1
					break
				}
			}
		}
		out = append(out, c)
	}
	return out
}

// stopWord reports whether the analyzer drops word, a plain word, whole.
func (s *state) stopWord(word string) bool {
	return lettersOnly(word) && query.StopWords()[strings.ToLower(word)]
}

// hyphenatedWord joins the words of cs with hyphens when they are plain
// words, all but the last stop words, and the index has them as one.
func (s *state) hyphenatedWord(cs []query.Clause) (string, bool) {
	parts := make([]string, len(cs))
	for k, c := range cs {
		if c.Phrase || !lettersOnly(c.Text) || k < len(cs)-1 && !s.stopWord(c.Text) || k == len(cs)-1 && s.stopWord(c.Text) {
			return "", false
		}
		parts[k] = c.Text
	}
	whole := strings.ToLower(strings.Join(parts, ""))
	if english.KnownForm(whole) {
		// "a version" is not "aversion", "in sight" not "insight": the
		// letters spell a word of their own.
		return "", false
	}
	stem, ok := s.joinedStem(whole)
	if !ok {
		return "", false
	}
	// A name papers use, not a chance hyphenation ("the-best"): at least
	// compoundShare of the papers with its last word write it.
	df, last := s.vocab.df(stem), s.an.text.Analyze([]byte(parts[len(parts)-1]))
	if df < 2 || len(last) != 1 || float64(df) < compoundShare*float64(s.vocab.df(string(last[0].Term))) {
		return "", false
	}
	return strings.Join(parts, "-"), true
}

// stopWordCompound returns the indexed stem of text when text is one
// hyphenated word with a stop word among its parts ("in-context",
// "out-of-distribution"): the analyzer keeps only its other parts, so as
// a filter or exclusion it would stand for them alone.
func (s *state) stopWordCompound(text string) (string, bool) {
	text = strings.TrimSpace(text)
	cs := compounds(text)
	if len(cs) != 1 || cs[0].start != 0 || cs[0].end != len(text) {
		return "", false
	}
	if len(s.an.text.Analyze([]byte(text))) == strings.Count(text, "-")+1 {
		return "", false // no part dropped: "G-CSF" is found as its parts
	}
	stem, ok := s.joinedStem(cs[0].joined)
	return stem, ok && s.vocab.has(stem)
}

// compoundShare: "few-shot" is in a third of the papers that say "shot",
// "out-of-domain" in 3% of those that say "domain", "the-best" in 0.2% of
// those that say "best" (ICLR, ICML and NeurIPS papers).
const compoundShare = 0.02

// identExpansions returns the dictionary's long forms of ident, an
// identifier typed ("k-NN"), as one acronym; none when it is none.
func (s *state) identExpansions(ident string) []expansion {
	if ident == "" {
		return nil
	}
	stem, ok := s.joinedStem(joinedKey(ident))
	if !ok {
		return nil
	}
	var out []expansion
	for _, e := range s.acr.spelledAs(stem, ident) {
		if expandsAsTyped(e, ident) {
			out = append(out, e)
		}
	}
	return out
}

// kindWords name a kind of paper rather than a topic.
var kindWords = lexicon.Words("kind", "anywhere")

// kindWeight scales a kind word's weight beside topic words: in "survey of
// graph transformers" a survey ranks first among the graph-transformer
// papers, but a survey of anything else ("survey methodology") is no
// answer, and without a survey the graph-transformer papers still are.
const kindWeight = 0.25

// weighKinds scales the weights of groups that are kind words, when other
// groups say the topic.
func weighKinds(groups []group) []group {
	topic := slices.ContainsFunc(groups, func(g group) bool { return !kindWords[strings.ToLower(g.surface)] })
	for i, g := range groups {
		if topic && kindWords[strings.ToLower(g.surface)] {
			groups[i].weight *= kindWeight
		}
	}
	return groups
}

// looseGroups splits the groups of several words the user did not quote (a
// long form), and with quoted too their quoted phrases, into one group per
// word; nil when there is none to split. A link stays whole.
func (s *state) looseGroups(groups []group, quoted bool) []group {
	var out []group
	split := false
	for _, g := range groups {
		if len(g.alts[0].words()) < 2 || g.link || g.alts[0].quoted && !quoted {
			out = append(out, g)
			continue
		}
		split = true
		for _, t := range s.an.text.Analyze([]byte(g.surface)) {
			out = append(out, s.wordGroup(qtoken{stem: string(t.Term), surface: g.surface[t.Start:t.End]}))
		}
	}
	if !split {
		return nil
	}
	return weighKinds(mergeGroups(out))
}

// mergeGroups drops repeated groups ("graph graph").
func mergeGroups(gs []group) []group {
	out := gs[:0]
	seen := map[string]bool{}
	for _, g := range gs {
		k := strings.Join(g.alts[0].terms, " ")
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, g)
	}
	return out
}

// wordGroups groups a run of unquoted words: a run that spells a known long
// form ("key value", "machine learning interatomic potentials") becomes one
// group with its acronym as alternative; every other word is its own group.
func (s *state) wordGroups(run []qtoken, wordsApart bool) []group {
	var gs []group
	stems := make([]string, len(run))
	for i, t := range run {
		stems[i] = t.stem
	}
	for i := 0; i < len(run); {
		maxWords := 0
		if wordsApart {
			maxWords = 2
		}
		fitsTyped := func(e expansion, n int) bool { return sameGaps(e.terms, run[i:i+n]) }
		if e, n := s.acr.longForm(stems[i:], maxWords, fitsTyped); n >= 2 {
			surf := make([]string, n)
			for k := range n {
				surf[k] = run[i+k].surface
			}
			g := group{surface: strings.Join(surf, " "), alts: []alt{{kind: altExact, terms: e.terms}}}
			if typed, ok := typedTerms(e.terms, run[i:i+n]); ok {
				g.alts = append(g.alts, alt{kind: altSpelling, terms: typed})
			}
			for _, x := range s.acr.acronymsFor(e.words()) {
				if s.acr.minority(x) {
					continue
				}
				// Papers write it in capitals: "ln" is a logarithm.
				a := alt{kind: altAcronym, terms: []string{x.acronym}, acronym: x.short}
				if s.acr.ambiguous[x.acronym] {
					// The acronym may stand for something else in a paper.
					a.credit = ambiguousCredit
				}
				g.alts = append(g.alts, a)
			}
			if w, ok := s.distinctiveWord(e.words()); ok {
				for _, t := range run[i : i+n] {
					if t.stem == w && t.typedStem == "" {
						g.alts = append(g.alts, alt{kind: altPart, terms: []string{w}, form: t.surface})
						break
					}
				}
			}
			g.weight = s.groupWeight(g)
			g.longForm = n
			g.apart = i == 0 || run[i].gapBefore
			g.orBefore = run[i].orBefore
			gs = append(gs, g)
			i += n
			continue
		}
		g := s.wordGroup(run[i])
		g.apart = i == 0 || run[i].gapBefore
		g.orBefore = run[i].orBefore
		if i > 0 && !g.apart && len(gs) > 0 && len(gs[len(gs)-1].names) > 0 && (g.names == nil || !s.fullName(gs[len(gs)-1].names, g.names)) {
			if sur, ok := s.surnameTypo(run[i-1].surface, run[i].surface); ok {
				g.names = []string{sur}
				g.weight = s.groupWeight(g)
			}
		}
		gs = append(gs, g)
		i++
	}
	return gs
}

// A long form's distinctive word alone counts for part of it: papers on
// unlearning in LLMs write "unlearning", never "machine unlearning", and
// listing LLM papers on anything above them answers "machine unlearning
// for LLMs" badly. A word is distinctive when the long form's other word
// is at least partRarity times as common: "unlearning" beside "machine",
// not "privacy" beside "differential". Only two-word long forms: in "causal
// language models" the rarest word, "causal", is another topic. Both
// chosen on the train splits (SciFact, ICLR keywords and TL;DRs): with
// three-word long forms or a rarity of 4, keywords lost.
const (
	partWordCredit = 0.5
	partRarity     = 8
)

// distinctiveWord returns the two-word long form's distinctive word, if it
// has one.
func (s *state) distinctiveWord(words []string) (string, bool) {
	if len(words) != 2 {
		return "", false
	}
	rare, other := words[0], words[1]
	if s.vocab.df(other) < s.vocab.df(rare) {
		rare, other = other, rare
	}
	rareDF := s.vocab.df(rare)
	if rareDF == 0 || rareDF > s.commonLimit() || s.vocab.df(other) < partRarity*rareDF {
		return "", false
	}
	return rare, true
}

// typedTerms returns a long form's terms with the stems as typed in run
// where a typed word stands for another ("neural nets"); ok is false when
// none does.
func typedTerms(terms []string, run []qtoken) ([]string, bool) {
	var out []string
	k := 0
	for i, t := range terms {
		if t == "" {
			continue
		}
		if k < len(run) && run[k].typedStem != "" {
			if out == nil {
				out = slices.Clone(terms)
			}
			out[i] = run[k].typedStem
		}
		k++
	}
	return out, out != nil
}

// sameGaps reports whether the words typed leave out stop words where the
// long form does: "loss function" is not "loss of function" (LoF).
func sameGaps(terms []string, typed []qtoken) bool {
	k := 0
	for i, t := range terms {
		if t == "" {
			if i > 0 && terms[i-1] == "" {
				continue
			}
			if k == 0 || k >= len(typed) || !typed[k].gapBefore {
				return false
			}
			continue
		}
		if k > 0 && k < len(typed) && typed[k].gapBefore && (i == 0 || terms[i-1] != "") {
			return false
		}
		k++
	}
	return true
}

// wordGroup is the group of one unquoted word.
func (s *state) wordGroup(t qtoken) group {
	g := group{surface: t.surface, ident: t.ident, alts: []alt{{kind: altExact, terms: []string{t.stem}}}}
	caps := query.TypedInCapitals(t.surface)
	if caps || mixedCase(t.surface) {
		// Found as written: "RoPE" is no "Roping" (wordCredit).
		g.alts[0].acronym = t.surface
	}
	if t.typedStem != "" {
		g.alts[0].standsFor = true
		kind := altSpelling
		if t.clipped {
			kind = altSynonym
		}
		g.alts = append(g.alts, alt{kind: kind, terms: []string{t.typedStem}})
	}
	if t.partial {
		// "shot" alone may be "zero-shot": the joined word counts in full.
		g.alts[0].credit = partialCredit
	}
	if t.joined != "" {
		if stem, ok := s.joinedStem(t.joined); ok && stem != t.stem {
			a := alt{kind: altExact, terms: []string{stem}, whole: true}
			if caps {
				a.acronym = t.joined
			}
			g.alts = append(g.alts, a)
		}
	}
	// An identifier that is an acronym whole ("k-NN": kNN) stands for its
	// long form, k-nearest neighbors; its parts do not stand for theirs
	// (NN is not neural networks there).
	whole := s.identExpansions(t.ident)
	if t.joined != "" {
		for _, e := range whole {
			g.alts = append(g.alts, alt{kind: altAcronym, terms: e.terms, titleOnly: s.common(e.words())})
		}
	}
	for _, e := range s.acr.spelledAs(t.stem, t.surface) {
		if len(whole) == 0 && expandsAsTyped(e, t.surface) {
			g.alts = append(g.alts, alt{kind: altAcronym, terms: e.terms, titleOnly: s.common(e.words())})
		}
	}
	for _, syn := range s.syn[t.stem] {
		if s.vocab.has(syn) {
			g.alts = append(g.alts, alt{kind: altSynonym, terms: []string{syn}})
		}
	}
	variant := "" // the other spelling's stem, when the corpus has it
	if v := query.SpellingVariant(t.surface); v != "" {
		for _, tk := range s.an.text.Analyze([]byte(v)) {
			if st := string(tk.Term); st != t.stem && s.vocab.has(st) {
				g.alts = append(g.alts, alt{kind: altSpelling, terms: []string{st}})
				variant = st
			}
		}
	}
	if names := s.nameTokens(t.surface); len(names) > 0 && !s.usedAsWord(t.stem, names) {
		g.names = names
	}
	// A word of general English the corpus lacks is no typo: "stroke" is
	// not "store", "medieval" not "medium".
	if len(g.alts) == 1 && g.names == nil && !english.KnownForm(strings.ToLower(t.surface)) {
		var fixes []fix
		if !s.vocab.has(t.stem) {
			fixes = s.typoFixes(t.surface, t.stem)
		} else {
			fixes = s.commonerSpellings(t.surface, t.stem)
		}
		for _, f := range fixes {
			g.alts = append(g.alts, alt{kind: altFuzzy, terms: []string{f.term}, credit: f.credit()})
		}
	}
	g = s.withMeta(g, t.yearSpan)
	g.action = t.action
	g.weight = s.groupWeight(g)
	if variant != "" {
		// A word is as rare as its commoner spelling: papers that write
		// "defense" answer "defence" too, and weigh no more for it.
		g.weight = min(g.weight, s.vocab.idf(variant))
	}
	return g
}

// nameTokens returns the author-name tokens of w when every one of them is
// an author name in the corpus. A lone letter is an initial, not a name:
// the "D" of "vitamin D" is no author's.
func (s *state) nameTokens(w string) []string {
	// "Bengio's work": the possessive is no part of the name.
	w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
	var out []string
	for _, tk := range s.an.name.Analyze([]byte(w)) {
		n := string(tk.Term)
		if utf8.RuneCountInString(n) < 2 || s.vocab.name(n) == 0 {
			return nil
		}
		out = append(out, n)
	}
	return out
}

// nameMarker reports whether word i of text only marks a name: the
// initial of "Y. Bengio", or the "et al." of "Bengio et al.".
func (s *state) nameMarker(text []query.Clause, i int) bool {
	c := text[i]
	if c.Phrase {
		return false
	}
	word := func(j int) string {
		if j < 0 || j >= len(text) || text[j].Phrase {
			return ""
		}
		return strings.ToLower(strings.TrimRight(text[j].Text, ".,;:!?"))
	}
	if r := []rune(c.Text); len(r) == 2 && unicode.IsUpper(r[0]) && r[1] == '.' && i+1 < len(text) && !text[i+1].Phrase {
		return len(s.nameTokens(strings.TrimRight(text[i+1].Text, ".,;:!?"))) > 0
	}
	return word(i) == "et" && word(i+1) == "al" || word(i) == "al" && word(i-1) == "et"
}

// phraseGroup is the group of a quoted phrase: matched exactly, stemmed, no
// synonyms or corrections. ok is false when the phrase is only stop words.
func (s *state) phraseGroup(text string) (group, bool) {
	terms := positionTerms(s.an.text.Analyze([]byte(text)))
	a := alt{kind: altExact, terms: terms, quoted: true}
	if len(a.words()) == 0 {
		return group{}, false
	}
	if w := a.words(); len(w) == 1 {
		a.terms = w
	}
	g := group{surface: text, alts: []alt{a}}
	g.weight = s.groupWeight(g)
	return g, true
}

// commonShare: a word in more than this share of papers is common.
const commonShare = 0.05

// commonLimit is the most papers a word may be in and not be common.
func (s *state) commonLimit() int { return max(50, int(commonShare*float64(s.vocab.n))) }

// common reports whether every word is in more than commonShare of the
// papers (and at least 50 of them).
func (s *state) common(words []string) bool {
	limit := s.commonLimit()
	for _, w := range words {
		if s.vocab.df(w) <= limit {
			return false
		}
	}
	return true
}

// altIDF is an alternative's informativeness: the sum of its words' idf.
func (s *state) altIDF(a alt) float64 {
	var w float64
	for _, t := range a.words() {
		w += s.vocab.idf(t)
	}
	return w
}

// altKnown reports whether every word of a is in the corpus.
func (s *state) altKnown(a alt) bool {
	for _, t := range a.words() {
		if !s.vocab.has(t) {
			return false
		}
	}
	return true
}

// groupWeight is the idf of what the user typed when the corpus knows it,
// else of the best-known alternative, else the idf of an unknown word (the
// highest, but see unknownWeight): a word no paper contains weighs most, so
// leaving it unmatched costs most coverage.
func (s *state) groupWeight(g group) float64 {
	if s.altKnown(g.alts[0]) {
		return s.altIDF(g.alts[0])
	}
	best := 0.0
	for _, a := range g.alts[1:] {
		if s.altKnown(a) {
			best = max(best, s.altIDF(a))
		}
	}
	if len(g.names) > 0 {
		for _, n := range g.names {
			best = max(best, s.nameIDF(n))
		}
	}
	best = max(best, s.metaIDF(g))
	if best > 0 {
		return best
	}
	return s.unknownWeight(g, s.altIDF(g.alts[0]))
}

// nameIDF is the idf of an author-name token.
func (s *state) nameIDF(n string) float64 {
	return bm25IDF(s.vocab.name(n), s.vocab.n)
}

// clauseTerms analyses a field clause or exclusion into one alternative
// (several words become a phrase). ok is false when nothing searchable is left.
func (s *state) clauseTerms(c query.Clause, field string) (alt, bool) {
	an := s.an.text
	if field == fieldAuthors || field == fieldVenue {
		an = s.an.name
	}
	a := alt{kind: altExact, terms: positionTerms(an.Analyze([]byte(c.Text)))}
	if len(a.words()) == 0 {
		return alt{}, false
	}
	if w := a.words(); len(w) == 1 {
		a.terms = w
	}
	return a, true
}
