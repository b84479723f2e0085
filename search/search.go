package search

import (
	"context"
	"time"

	"github.com/paperbot/paperbot/search/query"
)

const (
	defaultLimit = 5
	maxLimit     = 100
	maxOffset    = 10000
)

// Search runs r over the index. Query-language errors are *Error of kind
// Invalid. Results.NoMatch is set when nothing in the corpus is really
// relevant; Results then still lists the closest papers.
func (ix *Index) Search(ctx context.Context, r Request) (*Results, error) {
	q, text, err := r.parse()
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
	q.Answer = r.Answer
	q.Filter = q.WithRequest(r.Filter, time.Now())
	return st.search(ctx, text, q, limit, offset)
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

// search runs a parsed query through the stages, each in its own file:
// candidates (candidates.go, out: found) → re-rank (rank.go, out: ranked)
// → refuse (refuse.go, out: verdict) → answer (answer.go, out: Results) →
// snippet (package snippet, one per Result). Each stage takes the one
// before's output as a value; the running total of matching papers goes
// along, since every stage may add papers or drop them.
func (s *state) search(ctx context.Context, text string, q *query.Parsed, limit, offset int) (*Results, error) {
	f, linked, err := s.candidates(ctx, text, q, offset+limit)
	if err != nil || linked != nil {
		if linked != nil {
			if offset > 0 {
				linked.Results = []Result{}
			}
			linked.Query, linked.Offset = text, offset
		}
		return linked, err
	}
	r := s.rank(ctx, q, f, offset+limit)
	v := s.refuse(r)
	if v.noMatch && offset == 0 {
		r = s.withClosest(ctx, q, r, limit)
	}
	return s.results(text, q, r, v, limit, offset), nil
}
