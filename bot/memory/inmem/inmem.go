// Package inmem is an in-memory memory.Store: the honest fake, held to the
// same conformance suite (memorytest) as bot/boltstore. Nothing survives the
// process.
package inmem

import (
	"context"
	"fmt"
	"sync"

	"github.com/paperbot/paperbot/bot/memory"
	"github.com/paperbot/paperbot/fault"
)

var _ memory.Store = (*Store)(nil)

// Store is an in-memory memory.Store, safe for concurrent use. The zero
// value is not usable: use New.
type Store struct {
	mu    sync.Mutex
	lists map[memory.Owner]map[string]memory.Saved
	votes map[string]map[[2]string]memory.Vote // channel → (paper, user) → vote
}

// New returns an empty store.
func New() *Store {
	return &Store{lists: map[memory.Owner]map[string]memory.Saved{}, votes: map[string]map[[2]string]memory.Vote{}}
}

func (s *Store) Save(_ context.Context, owner memory.Owner, saved memory.Saved) (bool, error) {
	if err := owner.Validate(); err != nil {
		return false, err
	}
	if err := saved.Validate(); err != nil {
		return false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.lists[owner]
	if l == nil {
		l = map[string]memory.Saved{}
		s.lists[owner] = l
	}
	if _, ok := l[saved.Paper.ID]; ok {
		return false, nil
	}
	l[saved.Paper.ID] = saved
	return true, nil
}

func (s *Store) List(_ context.Context, owner memory.Owner) ([]memory.Saved, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []memory.Saved
	for _, v := range s.lists[owner] {
		out = append(out, v)
	}
	memory.SortSaved(out)
	return out, nil
}

func (s *Store) edit(owner memory.Owner, id string, fn func(l map[string]memory.Saved, v memory.Saved)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.lists[owner][id]
	if !ok {
		return fmt.Errorf("paper %s on list %s: %w", id, owner, fault.NotFound)
	}
	fn(s.lists[owner], v)
	return nil
}

func (s *Store) SetRead(_ context.Context, owner memory.Owner, id string, read bool) error {
	return s.edit(owner, id, func(l map[string]memory.Saved, v memory.Saved) { v.Read = read; l[id] = v })
}

func (s *Store) Remove(_ context.Context, owner memory.Owner, id string) error {
	return s.edit(owner, id, func(l map[string]memory.Saved, _ memory.Saved) { delete(l, id) })
}

func (s *Store) SetVote(_ context.Context, v memory.Vote) error {
	if err := v.Validate(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.votes[v.Channel] == nil {
		s.votes[v.Channel] = map[[2]string]memory.Vote{}
	}
	s.votes[v.Channel][[2]string{v.PaperID, v.User}] = v
	return nil
}

func (s *Store) ClearVote(_ context.Context, channel, user, paperID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.votes[channel], [2]string{paperID, user})
	return nil
}

func (s *Store) VoteOf(_ context.Context, channel, user, paperID string) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.votes[channel][[2]string{paperID, user}].Value, nil
}

func (s *Store) Votes(_ context.Context, channel string) ([]memory.Vote, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []memory.Vote
	for _, v := range s.votes[channel] {
		out = append(out, v)
	}
	memory.SortVotes(out)
	return out, nil
}

func (s *Store) Forget(_ context.Context, user string) (votes, saved int, err error) {
	if user == "" {
		return 0, 0, fault.E("forget", fault.Invalid, "no user to forget")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	saved = len(s.lists[memory.User(user)])
	delete(s.lists, memory.User(user))
	for _, l := range s.lists {
		for id, v := range l {
			if v.SavedBy == user {
				v.SavedBy = ""
				l[id] = v
			}
		}
	}
	for _, vs := range s.votes {
		for k, v := range vs {
			if v.User == user {
				delete(vs, k)
				votes++
			}
		}
	}
	return votes, saved, nil
}
