package search

import (
	"slices"
	"strings"

	bq "github.com/blevesearch/bleve/v2/search/query"
	"github.com/paperbot/paperbot/search/query"
)

// boostAuthors weighs an author's name above free text in bleve's
// retrieval. A title-only long form weighs as the body's words do: three
// times that (its old weight, never applied until conjunctions carried
// their boost) put papers with "Large Language Models" in their titles
// above those that match more of a long question, on train (eval).
const boostAuthors = 2.0

// bleveQuery builds the bleve query of a parsed query programmatically: free
// text is an OR of groups (bleve's coordination factor rewards papers that
// match more of them), each group an OR of its alternatives in title and
// abstract; field filters must match; exclusions must not; year and has:code
// filter without scoring.
func (s *state) bleveQuery(q *query.Parsed, groups []group) (bq.Query, error) {
	rg := s.retrieved(groups)
	var pairs []bq.Query
	if len(rg) < len(groups) {
		pairs = s.ubiquitousPairs(groups)
	}
	return s.bleveQueryOf(q, rg, pairs...)
}

// ubiquitousPairs looks for each ubiquitous word the query left out of
// bleve's lookup together with the word typed next to it, as a phrase:
// "training-free" looked up as "free" alone filled all thirty candidates
// with "Tuning-Free" and "Reward-Free" titles, and the papers that say
// "training-free" were not among them. Only words typed side by side, and
// only when the other word is in at most pairMaxWalk papers: on 100k
// papers the phrase of two common words doubled p99. On the train splits
// (eval) ICLR keywords rose 0.578 -> 0.581 and the lab queries 0.801 ->
// 0.803, the rest unchanged; a boost of 0.5 or 2 scored the same.
func (s *state) ubiquitousPairs(groups []group) []bq.Query {
	limit := s.ubiquitousLimit()
	var qs []bq.Query
	for i := 1; i < len(groups); i++ {
		a, b := groups[i-1], groups[i]
		if b.apart || !plainTerm(a) || !plainTerm(b) {
			continue
		}
		ta, tb := a.alts[0].terms[0], b.alts[0].terms[0]
		da, db := s.vocab.df(ta), s.vocab.df(tb)
		if (da > limit) != (db > limit) && min(da, db) <= pairMaxWalk {
			qs = append(qs, termsQuery(fieldBody, []string{ta, tb}, 1))
		}
	}
	return qs
}

// plainTerm reports whether g is one word of text: no year, venue or name.
func plainTerm(g group) bool {
	return len(g.alts[0].terms) == 1 && !g.isMeta() && len(g.names) == 0
}

// bleveQueryOf is bleveQuery with every group of rg a clause, ubiquitous
// words too, and the extra clauses beside them.
func (s *state) bleveQueryOf(q *query.Parsed, rg []group, extra ...bq.Query) (bq.Query, error) {
	b := bq.NewBooleanQuery(nil, nil, nil)
	if len(rg) > 0 {
		gs := make([]bq.Query, 0, len(rg))
		for _, g := range rg {
			gs = append(gs, groupQuery(g, s.altScale(g)))
		}
		gs = append(gs, s.longFormsBeside(rg, gs)...)
		gs = append(gs, extra...)
		b.AddMust(bq.NewDisjunctionQuery(gs))
	}
	for _, f := range q.Fields {
		a, ok := s.clauseTerms(f.Clause, f.Field)
		if !ok {
			return nil, invalidf(opParse, "%s:%s has no searchable words (only common words like \"the\"): use a more specific word", query.FieldLabel(f.Field), f.Text)
		}
		fq := termsQuery(f.Field, a.terms, 1)
		if stem, ok := s.stopWordCompound(f.Text); ok && f.Field == fieldTitle {
			// Titles hold "in-context" as "context" alone; the body holds it
			// whole (joined identifiers), from the title too.
			fq = bq.NewConjunctionQuery([]bq.Query{fq, termsQuery(fieldBody, []string{stem}, 1)})
		}
		if f.Not {
			b.AddMustNot(fq)
		} else {
			b.AddMust(fq)
		}
	}
	for _, c := range q.Exclude {
		a, ok := s.clauseTerms(c, fieldBody)
		if !ok {
			continue
		}
		alts := []alt{a}
		if stem, ok := s.stopWordCompound(c.Text); ok {
			// "-in-context" leaves out in-context learning, not every
			// paper that says "context".
			alts = []alt{{kind: altExact, terms: []string{stem}}}
		} else if w := a.words(); len(w) == 1 {
			for _, e := range s.acr.spelledAs(w[0], c.Text) {
				alts = append(alts, alt{kind: altAcronym, terms: e.terms})
			}
		} else {
			for _, e := range s.acr.acronymsFor(w) {
				if !s.acr.minority(e) { // "-test-time scaling" keeps the TTS (speech) papers
					alts = append(alts, alt{kind: altAcronym, terms: []string{e.acronym}})
				}
			}
		}
		for _, x := range alts {
			b.AddMustNot(termsQuery(fieldBody, x.terms, 1))
		}
	}
	var filters []bq.Query
	for _, y := range q.Years {
		yq := yearQuery(y)
		if y.Not {
			b.AddMustNot(yq)
		} else {
			filters = append(filters, yq)
		}
	}
	if q.HasCode != nil {
		hq := bq.NewBoolFieldQuery(*q.HasCode)
		hq.SetField(fieldHasCode)
		filters = append(filters, hq)
	}
	filters = append(filters, requestFilters(q.Filter)...)
	switch len(filters) {
	case 0:
	case 1:
		b.AddFilter(filters[0])
	default:
		b.AddFilter(bq.NewConjunctionQuery(filters))
	}
	if b.Must == nil && b.Filter == nil {
		// Only exclusions and negated filters: the parser refuses these, so
		// this is a safety net, not a feature.
		b.AddMust(bq.NewMatchNoneQuery())
	}
	return b, nil
}

// ubiquitousShare: a single word in more than this share of the papers
// ("model" in ML abstracts) finds nothing the other words do not, and costs
// the most to scan.
const ubiquitousShare = 0.4

// ubiquitousLimit is the most papers a word may be in and not be ubiquitous.
func (s *state) ubiquitousLimit() int { return int(ubiquitousShare * float64(s.vocab.n)) }

// retrieved returns the groups worth a bleve clause: all but single
// ubiquitous words, unless the corpus knows none of what is left ("fp8
// training": the papers that say "training" are the closest, not none; when
// what is left is known but found in no paper, search runs the query again
// with them). Re-ranking still counts the ubiquitous ones (at their low idf).
func (s *state) retrieved(groups []group) []group {
	limit := s.ubiquitousLimit()
	var out []group
	for _, g := range groups {
		if !s.ubiquitous(g, limit) {
			out = append(out, g)
		}
	}
	if !slices.ContainsFunc(out, s.groupKnown) {
		return groups
	}
	return out
}

// ubiquitous reports whether g is one word in more than limit papers,
// left out of bleve's lookup.
func (s *state) ubiquitous(g group, limit int) bool {
	w := g.alts[0].words()
	return len(g.alts) == 1 && len(w) == 1 && len(g.names) == 0 && !g.isMeta() && s.vocab.df(w[0]) > limit
}

// groupQuery is an OR of the group's alternatives over title, abstract and,
// for names, authors. Boosts are scaled by the clause count so that bleve's
// coordination factor (matched/total clauses) does not penalise groups that
// have many alternatives.
func groupQuery(g group, altScale []float64) bq.Query {
	n := len(g.names)
	n += len(g.alts)
	if g.isMeta() {
		n++
	}
	scale := float64(n) / 2
	if mq := metaQuery(g, boostAuthors*scale); mq != nil {
		// Found in the papers' years or venues only (see newMatcher).
		return bq.NewDisjunctionQuery([]bq.Query{mq})
	}
	qs := make([]bq.Query, 0, n)
	for i, a := range g.alts {
		k := a.kind.boost() * scale * altScale[i]
		if n := len(a.words()); a.kind == altAcronym && n > 1 {
			// A long form scores each of its words: as one alternative it
			// should weigh about as much as the acronym's single term.
			k /= float64(n)
		}
		if a.titleOnly {
			qs = append(qs, altQuery(fieldTitle, a, k))
		} else {
			qs = append(qs, altQuery(fieldBody, a, k))
		}
	}
	for _, name := range g.names {
		qs = append(qs, termsQuery(fieldAuthors, []string{name}, boostAuthors*scale))
	}
	return bq.NewDisjunctionQuery(qs)
}

// altScale scales each of g's alternatives so that none outweighs the
// words as typed in bleve's lookup: "language models" has the acronym "LM",
// rarer than both its words, and the papers that write "LMs" filled all
// thirty candidates of "diffusion language models", none about diffusion.
// A term's score grows with the square of its idf, so an alternative rarer
// than the typed words counts by the ratio of their squared idfs.
func (s *state) altScale(g group) []float64 {
	out := make([]float64, len(g.alts))
	typed := s.idfSquares(g.alts[0])
	for i, a := range g.alts {
		out[i] = 1
		if i > 0 && a.kind == altAcronym && typed > 0 {
			out[i] = min(1, typed/s.idfSquares(a))
		}
	}
	return out
}

// idfSquares sums the squared idfs of an alternative's words.
func (s *state) idfSquares(a alt) float64 {
	var sum float64
	for _, w := range a.words() {
		idf := s.vocab.idf(w)
		sum += idf * idf
	}
	return sum
}

// longFormsBeside retrieves, for each long form looked for in titles only
// (titleOnly: its words are too common to scan abstracts for alone), the
// papers that have it in the abstract beside another of the query's groups:
// "GNN combinatorial optimization" finds the combinatorial-optimization
// papers whose abstracts say "graph neural networks", which the OR of the
// groups left below the many GNN titles. Beside means beside the rarest
// other group, and only when its papers are few (at most commonShare of
// them, over all its alternatives): the long form's common words against
// every other group tripled p99 on 100k papers.
// queries[i] is groups[i]'s groupQuery.
func (s *state) longFormsBeside(groups []group, queries []bq.Query) []bq.Query {
	var qs []bq.Query
	for i, g := range groups {
		if !slices.ContainsFunc(g.alts, func(a alt) bool { return a.titleOnly }) {
			continue
		}
		rarest := -1
		for j, o := range groups {
			if j != i && (rarest < 0 || o.weight > groups[rarest].weight) {
				rarest = j
			}
		}
		if rarest < 0 || s.groupPapers(groups[rarest]) > s.commonLimit() {
			continue
		}
		for _, a := range g.alts {
			if a.titleOnly {
				qs = append(qs, bq.NewConjunctionQuery([]bq.Query{altQuery(fieldBody, a, 1), queries[rarest]}))
			}
		}
	}
	return qs
}

// groupPapers bounds from above how many papers the group's alternatives
// match: for each, the papers of its rarest word.
func (s *state) groupPapers(g group) int {
	n := 0
	for _, a := range g.alts {
		least := -1
		for _, w := range a.words() {
			if df := s.vocab.df(w); least < 0 || df < least {
				least = df
			}
		}
		n += max(least, 0)
	}
	return n
}

// altQuery matches an alternative in one field: a quoted phrase as a
// phrase, other multi-word alternatives as all of their words. The boost
// goes on each word: bleve ignores a conjunction's own boost.
func altQuery(field string, a alt, boost float64) bq.Query {
	w := a.words()
	if a.quoted || len(w) == 1 {
		return termsQuery(field, a.terms, boost)
	}
	qs := make([]bq.Query, len(w))
	for i, t := range w {
		qs[i] = termsQuery(field, []string{t}, boost)
	}
	return bq.NewConjunctionQuery(qs)
}

// termsQuery matches already-analysed terms: one term, or a phrase by
// position ("" entries are stop-word gaps).
func termsQuery(field string, terms []string, boost float64) bq.Query {
	if len(terms) == 1 {
		t := bq.NewTermQuery(terms[0])
		t.SetField(field)
		t.SetBoost(boost)
		return t
	}
	mp := make([][]string, len(terms))
	for i, t := range terms {
		if t != "" {
			mp[i] = []string{t}
		}
	}
	p := bq.NewMultiPhraseQuery(mp, field)
	p.SetBoost(boost)
	return p
}

func yearQuery(y query.YearClause) bq.Query {
	var lo, hi *float64
	if y.Min != 0 {
		v := float64(y.Min)
		lo = &v
	}
	if y.Max != 0 {
		v := float64(y.Max)
		hi = &v
	}
	inc := true
	q := bq.NewNumericRangeInclusiveQuery(lo, hi, &inc, &inc)
	q.SetField(fieldYear)
	return q
}

// gramWords returns the free-text words of q that carry meaning (not meta
// or stop words, nor a year or venue of groups), for the character 3-gram
// score.
func (s *state) gramWords(q *query.Parsed, groups []group) []string {
	var out []string
	for i, c := range q.Text {
		if !c.Phrase && (query.MetaWordAt(q.Text, i, q.Question) || len(s.an.text.Analyze([]byte(c.Text))) == 0 || namesMeta(groups, c.Text)) {
			continue // stop words are in every paper
		}
		out = append(out, c.Text)
	}
	return out
}

// namesMeta reports whether the typed word w is read as a year or venue.
func namesMeta(groups []group, w string) bool {
	w = query.BareWord(w)
	for _, g := range groups {
		if g.isMeta() && strings.EqualFold(g.surface, w) {
			return true
		}
	}
	return false
}
