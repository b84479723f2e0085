package search

import (
	"context"

	bq "github.com/blevesearch/bleve/v2/search/query"
)

// bleve's OR of the query's groups scores a group by all its alternatives
// together, so a group with several ("LMs": "LM", and "language models" in
// titles) that a paper repeats can fill every candidate: "diffusion LMs"
// listed thirty language-model papers and no paper on diffusion, though
// "Diffusion Language Models Are Versatile Protein Learners" has both.
// When no candidate has every word bleve looks up, the papers that do are
// looked up in a run of their own and join the re-ranking.

// togetherPapersMax bounds the papers that run adds.
const togetherPapersMax = 10

// togetherPapers returns the papers, not among cands, that match every
// group bleve looks up, re-scored as cands were; filters apply as in the
// main run. None when a candidate already has them all.
func (s *state) togetherPapers(ctx context.Context, q *parsedQuery, groups []group, mt *matcher, cands []candidate) []candidate {
	limit := s.ubiquitousLimit()
	var looked []group
	for _, g := range groups {
		if !s.ubiquitous(g, limit) {
			if !s.groupKnown(g) {
				return nil // no paper has it: none has them all
			}
			looked = append(looked, g)
		}
	}
	if len(looked) < 2 || s.rarestPapers(looked) > pairMaxWalk {
		// Only when the rarest group is in few papers, as for pairs: on
		// 100k papers (paperbench, 600 queries) p99 was 18.6 ms before this
		// lookup, 22.3 ms without the bound and 20.5 ms with it.
		return nil
	}
	for _, c := range cands[:min(len(cands), s.tune.Rerank)] {
		if c.m != nil && s.hasEvery(c.m, groups, limit) {
			return nil
		}
	}
	lookup, err := s.bleveQueryOf(q, looked)
	if err != nil {
		return nil
	}
	b, ok := lookup.(*bq.BooleanQuery)
	if !ok {
		return nil
	}
	// Every group instead of their OR (which kept p99 at 31 ms), filters
	// and exclusions as they were.
	every := make([]bq.Query, 0, len(looked))
	for _, g := range looked {
		every = append(every, groupQuery(g, s.altScale(g)))
	}
	b.Must = bq.NewConjunctionQuery(every)
	found, _, err := s.run(ctx, b, togetherPapersMax)
	if err != nil {
		return nil
	}
	found = notAmong(found, cands)
	s.rerank(found, mt, mt.grams)
	return found
}

// hasEvery reports whether m matched every group of groups that is not
// ubiquitous (in more than limit papers).
func (s *state) hasEvery(m *docMatch, groups []group, limit int) bool {
	for i, g := range groups {
		if m.credit[i] == 0 && !s.ubiquitous(g, limit) {
			return false
		}
	}
	return true
}

// rarestPapers is about how many papers have the rarest of groups (at
// most, over its alternatives); a name, year or venue counts as many.
func (s *state) rarestPapers(groups []group) int {
	rarest := s.vocab.n
	for _, g := range groups {
		if len(g.names) > 0 || g.isMeta() {
			continue
		}
		n := 0
		for _, a := range g.alts {
			least := s.vocab.n
			for _, w := range a.words() {
				least = min(least, s.vocab.df(w))
			}
			n += least
		}
		rarest = min(rarest, n)
	}
	return rarest
}
