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
	if len(looked) < 2 {
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
	for _, g := range looked {
		b.AddMust(groupQuery(g, s.altScale(g)))
	}
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
