package search

import (
	"context"
	"slices"
	"strings"

	"github.com/paperbot/paperbot/search/query"
)

// ranked is the re-rank stage's output: the candidates in their final
// order, with the matcher that scored them.
type ranked struct {
	groups []group
	// mt is the query's matcher, built once here and used again for
	// answers and missing words.
	mt *matcher
	// cands are best first; the re-ranked ones carry their match (m).
	cands []candidate
	// total is how many papers match in all (Results.Total): bleve's, plus
	// the papers added here, less those dropped.
	total      int
	loose      bool   // as found
	unheldLink string // as found
}

// rank is the second stage: it re-scores the best of f's candidates against
// the query's words (rerank, rank_bm25.go), adds the papers bleve misses
// (a CamelCase spelling, rank_spelled.go; the words together,
// rank_together.go; by meaning, meaning.go), puts f.apart below them, and
// drops the papers that match none of the words. need is how many papers
// the page reaches (offset+limit).
func (s *state) rank(ctx context.Context, q *query.Parsed, f found, need int) ranked {
	groups, cands, apart := f.groups, f.cands, f.apart
	r := ranked{groups: groups, total: f.total + len(apart), loose: f.loose, unheldLink: f.unheldLink}
	mt := newMatcher(groups)
	mt.quantity = q.Quantity
	mt.defines = q.Defines
	r.mt = mt
	if len(groups) == 0 {
		r.cands = cands
		return r
	}
	if s.tune.Prox > 0 {
		mt.pairIDF = s.pairIDFs(groups) // for pairScore
	}
	mt.grams = s.queryGrams(s.gramWords(q, groups))
	s.rerank(cands, mt, mt.grams)
	if !f.loose {
		spelled := s.spelledPapers(ctx, q, groups, mt, cands)
		cands = mergeRanked(cands, spelled, s.tune.Rerank)
		r.total += len(spelled)
		cands = mergeRanked(cands, s.togetherPapers(ctx, q, groups, mt, cands), s.tune.Rerank)
	}
	if len(apart) > 0 {
		s.rerank(apart, mt, mt.grams)
		cands = append(cands, apart...)
		rankBelow(cands, len(cands)-len(apart)) // below every paper that has the phrase
	}
	if !f.loose {
		before := len(cands)
		allRetrieved := r.total <= before // else a paper found by meaning may be one of bleve's unseen hits
		cands = s.withMeaning(ctx, q, groups, mt, cands, need)
		if allRetrieved {
			r.total += len(cands) - before
		}
	}
	var dropped int
	r.cands, dropped = s.withoutUnmatched(cands, groups)
	r.total -= dropped
	return r
}

// rerank re-scores the best candidates with textbook BM25 over words
// (title counted twice) plus a weighted BM25 over character 3-grams; deeper
// hits keep bleve's order below them, so pages stay consistent.
func (s *state) rerank(cands []candidate, mt *matcher, qg *queryGrams) {
	if len(cands) == 0 {
		return
	}
	n := min(len(cands), max(s.tune.Rerank, 1))
	for i := range cands[:n] {
		s.scoreCandidate(&cands[i], mt, qg)
	}
	sortByRank(cands[:n])
	rankBelow(cands, n)
}

// scoreCandidate matches c against the query and sets its rank: textbook
// BM25 over words plus the weighted pair and 3-gram scores.
func (s *state) scoreCandidate(c *candidate, mt *matcher, qg *queryGrams) {
	m := s.match(c.doc, mt)
	c.m = &m
	c.rank = s.wordScore(c.doc, &m, mt.groups)
	if s.tune.Prox > 0 {
		c.rank += s.tune.Prox * s.pairScore(c.doc, mt)
	}
	if s.tune.Grams > 0 {
		c.rank += s.tune.Grams * s.gramScore(c.doc, qg)
	}
}

// mergeRanked merges re-scored papers into cands' re-scored head (its first
// n), in rank order; the papers below the head keep following it.
func mergeRanked(cands, more []candidate, n int) []candidate {
	if len(more) == 0 {
		return cands
	}
	n = min(n, len(cands))
	head := append(slices.Clip(cands[:n]), more...)
	sortByRank(head)
	out := append(head, cands[n:]...)
	rankBelow(out, len(head))
	return out
}

// rankBelow ranks cs[from:] each a little below the one before, keeping
// their order under the re-scored papers above them.
func rankBelow(cs []candidate, from int) {
	for i := from; i < len(cs); i++ {
		cs[i].rank = cs[i-1].rank * 0.99
	}
}

// sortByRank orders candidates by rank, best first, ties by ID.
func sortByRank(cs []candidate) {
	slices.SortStableFunc(cs, func(a, b candidate) int {
		switch {
		case a.rank > b.rank:
			return -1
		case a.rank < b.rank:
			return 1
		}
		return strings.Compare(a.doc.ID, b.doc.ID)
	})
}

// withoutUnmatched drops the re-ranked candidates that have none of the
// query's words, as asked or apart: bleve finds stems, and "spinning" has
// the stem of SPIN, the acronym of "self-play fine-tuning", which the
// paper never writes. It returns how many it dropped.
func (s *state) withoutUnmatched(cands []candidate, groups []group) ([]candidate, int) {
	n := len(cands)
	cands = slices.DeleteFunc(cands, func(c candidate) bool {
		return !c.byMeaning && c.m != nil && !slices.ContainsFunc(c.m.credit, func(x float64) bool { return x > 0 }) && len(s.wordsFound(c.doc, groups)) == 0
	})
	return cands, n - len(cands)
}

// fullAt returns the positions, among the re-ranked candidates, of those
// that cover as much of the query by cover as the best of them.
func (s *state) fullAt(cands []candidate, cover func(*docMatch) float64) []int {
	n := min(len(cands), max(s.tune.Rerank, 1))
	best := 0.0
	for _, c := range cands[:n] {
		if c.m != nil {
			best = max(best, cover(c.m))
		}
	}
	var at []int
	for i, c := range cands[:n] {
		if c.m != nil && cover(c.m) >= best-1e-9 {
			at = append(at, i)
		}
	}
	return at
}

// askedYearsFirst puts, among the re-ranked candidates that have as much
// of the query's text as the best of them, those of the years and venues
// it names first (the more of them, the higher), in rank order. They trade
// places among themselves only: a paper of the year with less of the text
// keeps its place ("Lijun Zhang dynamic regret … (the NeurIPS 2018 one)").
// Counted like title words, "2025" in "ICML 2025 papers on KV cache" left
// SepLLM, an ICML 2025 paper on KV cache, below seven ICML 2024 ones.
func (s *state) askedYearsFirst(cands []candidate, groups []group) {
	if !slices.ContainsFunc(groups, group.isMeta) {
		return
	}
	text := func(m *docMatch) float64 {
		return coverageOf(groups, m.credit, func(g group) bool { return !g.isMeta() })
	}
	asked := func(c candidate) int {
		n := 0
		for gi, g := range groups {
			if g.isMeta() && c.m.credit[gi] > 0 {
				n++
			}
		}
		return n
	}
	at := s.fullAt(cands, text)
	full := make([]candidate, len(at))
	for k, i := range at {
		full[k] = cands[i]
	}
	slices.SortStableFunc(full, func(a, b candidate) int { return asked(b) - asked(a) })
	for k, i := range at {
		cands[i] = full[k]
	}
}

// newestFirst puts, among the re-ranked candidates, those that cover as much
// of the query as the best of them newest first, in rank order within a
// year; the rest keep their order below. "latest papers by Sergey Levine"
// listed his 2018 papers above his 2024 ones.
func (s *state) newestFirst(cands []candidate) {
	at := s.fullAt(cands, func(m *docMatch) float64 { return m.coverage })
	n := min(len(cands), max(s.tune.Rerank, 1))
	full := make([]candidate, 0, n)
	rest := make([]candidate, 0, n)
	for i, c := range cands[:n] {
		if len(at) > 0 && at[0] == i {
			full, at = append(full, c), at[1:]
		} else {
			rest = append(rest, c)
		}
	}
	slices.SortStableFunc(full, func(a, b candidate) int { return b.doc.Year - a.doc.Year })
	copy(cands, append(full, rest...))
}
