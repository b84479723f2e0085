package bot

import (
	"context"
	"time"

	"github.com/paperbot/paperbot/search"
)

// Searcher is the index the bot answers from. *search.Index implements it.
// Implementations must be safe for concurrent use; errors should be
// *fault.Error (search.Error is one) so that their kind decides what the
// user is told.
type Searcher interface {
	Search(ctx context.Context, r search.Request) (*search.Results, error)
	Get(id string) (search.Paper, error)
	// Lookup finds a paper by ID or by title.
	Lookup(ctx context.Context, ref string) (search.Paper, error)
	Similar(ctx context.Context, id string, limit int) (*search.Results, error)
	SimilarText(ctx context.Context, text string, limit int) (*search.Results, error)
	// AnswerIn returns a paper and the sentence of its abstract that
	// answers question, "" when none does.
	AnswerIn(ctx context.Context, id, question string) (search.Paper, string, error)
	Stats() search.Stats
}

// meteredSearcher records the latency of every index call.
type meteredSearcher struct {
	Searcher
	m *metrics
}

func (s meteredSearcher) Search(ctx context.Context, r search.Request) (*search.Results, error) {
	defer s.observe("search", time.Now())
	return s.Searcher.Search(ctx, r)
}

func (s meteredSearcher) Get(id string) (search.Paper, error) {
	defer s.observe("get", time.Now())
	return s.Searcher.Get(id)
}

func (s meteredSearcher) Lookup(ctx context.Context, ref string) (search.Paper, error) {
	defer s.observe("lookup", time.Now())
	return s.Searcher.Lookup(ctx, ref)
}

func (s meteredSearcher) Similar(ctx context.Context, id string, limit int) (*search.Results, error) {
	defer s.observe("similar", time.Now())
	return s.Searcher.Similar(ctx, id, limit)
}

func (s meteredSearcher) SimilarText(ctx context.Context, text string, limit int) (*search.Results, error) {
	defer s.observe("similar_text", time.Now())
	return s.Searcher.SimilarText(ctx, text, limit)
}

func (s meteredSearcher) AnswerIn(ctx context.Context, id, question string) (search.Paper, string, error) {
	defer s.observe("answer_in", time.Now())
	return s.Searcher.AnswerIn(ctx, id, question)
}

// Ready forwards an optional Ready method of the wrapped searcher.
func (s meteredSearcher) Ready() bool {
	if r, ok := s.Searcher.(interface{ Ready() bool }); ok {
		return r.Ready()
	}
	return true
}

func (s meteredSearcher) observe(op string, start time.Time) {
	s.m.searchLatency.WithLabelValues(op).Observe(since(start))
}
