package search

import (
	"context"
	"slices"

	bq "github.com/blevesearch/bleve/v2/search/query"
	"github.com/paperbot/paperbot/search/query"
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
func (s *state) togetherPapers(ctx context.Context, q *query.Parsed, groups []group, mt *matcher, cands []candidate) []candidate {
	looked := s.retrieved(groups)
	unknown := func(g group) bool { return !s.groupKnown(g) }
	if len(looked) < 2 || slices.ContainsFunc(looked, unknown) || s.rarestPapers(looked) > pairMaxWalk {
		// One no paper has: none has them all. A rarest group in many papers:
		// as for pairs, on 100k papers (paperbench, 600 queries) p99 was
		// 18.6 ms before this lookup, 22.3 ms without the bound and 20.5 ms
		// with it.
		return nil
	}
	// The groups a candidate must have: all that bleve looks up.
	limit := s.ubiquitousLimit()
	need := make([]bool, len(groups))
	for i, g := range groups {
		need[i] = !s.ubiquitous(g, limit)
	}
	for _, c := range cands[:min(len(cands), s.tune.Rerank)] {
		if c.m != nil && hasEvery(c.m, need) {
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

// hasEvery reports whether m matched every group that need marks.
func hasEvery(m *docMatch, need []bool) bool {
	for i, n := range need {
		if n && m.credit[i] == 0 {
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
