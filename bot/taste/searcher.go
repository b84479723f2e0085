package taste

import (
	"context"
	"errors"

	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/bot/memory"
	"github.com/paperbot/paperbot/fault"
	"github.com/paperbot/paperbot/search"
)

// Votes is the part of the memory store the digests read.
type Votes interface {
	Votes(ctx context.Context, channel string) ([]memory.Vote, error)
}

// TermIndex is an index with term vectors (*search.Index).
type TermIndex interface {
	TermVector(ctx context.Context, id string) (map[string]float64, error)
}

// TermVectors are the index's term vectors as paper vectors.
type TermVectors struct{ Index TermIndex }

// Vector is paper id's term vector; a paper gone from the index has none
// (fault.NotFound).
func (t TermVectors) Vector(id string) (Vector, error) {
	v, err := t.Index.TermVector(context.Background(), id)
	return Vector(v), err
}

// Searcher is a digest.Searcher that is also a digest.Reranker: each
// channel's candidates are ordered by the profile its votes make.
type Searcher struct {
	digest.Searcher
	Votes   Votes
	Vectors Vectors
	// Tuning is DefaultTuning when zero.
	Tuning Tuning
}

var _ digest.Reranker = Searcher{}

// Rerank orders a channel's candidates by its votes: a paper's net vote
// (its 👍 less its 👎, over the channel's readers) makes it liked or
// disliked. A channel without votes keeps the topic's order.
func (s Searcher) Rerank(ctx context.Context, channelID string, cands []search.Result) ([]search.Result, map[string]digest.Lift, error) {
	votes, err := s.Votes.Votes(ctx, channelID)
	if err != nil {
		return nil, nil, err
	}
	liked, disliked := Split(votes)
	t := s.Tuning
	if t == (Tuning{}) {
		t = DefaultTuning
	}
	p := Learn(t, s.Vectors, liked, disliked)
	if p.Empty() {
		return cands, nil, nil
	}
	ranked := p.Rerank(s.Vectors, cands)
	out := make([]search.Result, len(ranked))
	var lifted map[string]digest.Lift
	for i, r := range ranked {
		out[i] = r.Result
		if r.Because == "" {
			continue
		}
		title := r.Because
		if paper, err := s.Get(r.Because); err == nil {
			title = paper.Headline
		} else if !errors.Is(err, fault.NotFound) {
			return nil, nil, err
		}
		if lifted == nil {
			lifted = map[string]digest.Lift{}
		}
		lifted[r.ID] = digest.Lift{Because: title, From: r.Was + 1}
	}
	return out, lifted, nil
}

// Split sorts the papers of a channel's votes into liked and disliked by
// their net vote, in the order they were first voted on.
func Split(votes []memory.Vote) (liked, disliked []string) {
	net := map[string]int{}
	var order []string
	for _, v := range votes {
		if _, ok := net[v.PaperID]; !ok {
			order = append(order, v.PaperID)
		}
		net[v.PaperID] += v.Value
	}
	for _, id := range order {
		switch {
		case net[id] > 0:
			liked = append(liked, id)
		case net[id] < 0:
			disliked = append(disliked, id)
		}
	}
	return liked, disliked
}
