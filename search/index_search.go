package search

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2"
	bq "github.com/blevesearch/bleve/v2/search/query"
)

const (
	defaultLimit = 5
	maxLimit     = 100
	maxOffset    = 10000
	// rerankDepth is how many of bleve's best hits are re-ranked by query
	// coverage; deeper hits keep bleve's order, so pages stay consistent.
	rerankDepth = 30
	// noMatchCoverage: when the best paper matches less than this share of
	// the query's idf weight, nothing in the corpus is really relevant.
	noMatchCoverage = 0.6
)

// Search runs r over the index. Query-language errors are *Error of kind
// Invalid. Results.NoMatch is set when nothing in the corpus is really
// relevant; Results then still lists the closest papers.
func (ix *Index) Search(ctx context.Context, r Request) (*Results, error) {
	q, err := parseQuery(r.Text)
	if err != nil {
		return nil, err
	}
	limit, offset, err := page(r)
	if err != nil {
		return nil, err
	}
	st, release, err := ix.live()
	if err != nil {
		return nil, err
	}
	defer release()
	return st.search(ctx, r.Text, q, limit, offset)
}

func page(r Request) (limit, offset int, err error) {
	limit, offset = r.Limit, r.Offset
	if limit == 0 {
		limit = defaultLimit
	}
	if limit < 0 || limit > maxLimit {
		return 0, 0, invalidf("search", "the number of results must be between 1 and %d", maxLimit)
	}
	if offset < 0 || offset > maxOffset {
		return 0, 0, invalidf("search", "the result offset must be between 0 and %d", maxOffset)
	}
	return limit, offset, nil
}

// candidate is a paper bleve found, with its re-ranking data.
type candidate struct {
	doc   int
	score float64 // bleve's
	rank  float64 // final ranking score
	m     *docMatch
}

func (s *state) search(ctx context.Context, text string, q *parsedQuery, limit, offset int) (*Results, error) {
	groups := s.textGroups(q)
	if !q.filterOnly() && len(groups) == 0 && len(q.fields) == 0 && len(q.years) == 0 && q.hasCode == nil {
		return nil, invalidf(opParse, "%q has only common words (like \"the\" or \"which paper\"): add what the paper is about", excerpt(text))
	}
	bquery, err := s.bleveQuery(q, groups)
	if err != nil {
		return nil, err
	}
	cands, total, err := s.run(ctx, bquery, max(offset+limit, rerankDepth))
	if err != nil {
		return nil, err
	}
	res := &Results{Query: text, Total: total, Offset: offset, Results: []Result{}}
	mt := newMatcher(groups)
	if len(groups) > 0 {
		s.rerank(cands, mt)
	}
	if len(cands) > 0 {
		res.Confidence = 1
		if len(groups) > 0 {
			res.Confidence = bestCoverage(cands)
		}
	}
	res.NoMatch = len(cands) == 0 || res.Confidence < noMatchCoverage
	wantAnswer := q.question || len(groups) >= 2
	for i := offset; i < min(len(cands), offset+limit); i++ {
		res.Results = append(res.Results, s.result(cands[i], mt, wantAnswer && !res.NoMatch))
	}
	return res, nil
}

// run executes a bleve query for the best n hits.
func (s *state) run(ctx context.Context, q bq.Query, n int) ([]candidate, int, error) {
	req := bleve.NewSearchRequestOptions(q, n, 0, false)
	sr, err := s.bi.SearchInContext(ctx, req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, 0, &Error{Op: "search", Kind: Internal, Msg: "the search was cancelled", Err: ctx.Err()}
		}
		return nil, 0, &Error{Op: "search", Kind: Internal, Err: err}
	}
	cands := make([]candidate, 0, len(sr.Hits))
	for _, h := range sr.Hits {
		i, ok := s.byID[h.ID]
		if !ok {
			return nil, 0, &Error{Op: "search", Kind: Internal, Err: fmt.Errorf("index has paper %q the corpus lacks", h.ID)}
		}
		cands = append(cands, candidate{doc: i, score: h.Score, rank: h.Score})
	}
	return cands, int(sr.Total), nil
}

// bestCoverage is the highest coverage among the re-ranked candidates.
func bestCoverage(cands []candidate) float64 {
	best := 0.0
	for _, c := range cands {
		if c.m != nil {
			best = max(best, c.m.coverage)
		}
	}
	return best
}

// rerank orders the best rerankDepth candidates by a blend of query coverage
// and bleve's score relative to the best one; bleve scores alone are not
// comparable across queries or segment layouts, coverage is.
func (s *state) rerank(cands []candidate, mt *matcher) {
	if len(cands) == 0 {
		return
	}
	n := min(len(cands), rerankDepth)
	top := cands[0].score
	for i := range cands[:n] {
		c := &cands[i]
		m := s.match(c.doc, mt)
		c.m = &m
		rel := 0.0
		if top > 0 {
			rel = c.score / top
		}
		c.rank = m.coverage * (0.5 + 0.5*rel)
	}
	slices.SortStableFunc(cands[:n], func(a, b candidate) int {
		switch {
		case a.rank > b.rank:
			return -1
		case a.rank < b.rank:
			return 1
		}
		return strings.Compare(s.papers[a.doc].ID, s.papers[b.doc].ID)
	})
	// Deeper hits keep bleve's order, scored no higher than the re-ranked.
	for i := n; i < len(cands); i++ {
		cands[i].rank = min(0.25*cands[i].score/top, cands[i-1].rank)
	}
}

// result assembles one ranked paper: snippet around the best sentence,
// the answer sentence when asked for, and the matched query words.
func (s *state) result(c candidate, mt *matcher, wantAnswer bool) Result {
	groups := mt.groups
	p := s.papers[c.doc]
	r := Result{Paper: p, Score: c.rank}
	if len(groups) == 0 {
		r.Snippet = makeSnippet(p.Abstract, nil, span{})
		return r
	}
	m := c.m
	if m == nil {
		mm := s.match(c.doc, mt)
		m = &mm
	}
	for gi, g := range groups {
		if m.credit[gi] > 0 {
			r.Matched = append(r.Matched, g.surface)
		}
	}
	sents := sentences(p.Abstract)
	best, cov := bestSentence(sents, m.abstract, groups)
	focus := span{}
	if best >= 0 {
		focus = sents[best]
		if wantAnswer && cov >= minAnswerCoverage {
			r.Answer = p.Abstract[focus.start:focus.end]
		}
	}
	r.Snippet = makeSnippet(p.Abstract, m.abstract, focus)
	return r
}
