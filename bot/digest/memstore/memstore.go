// Package memstore is an in-memory digest.Store: the honest fake the
// scheduler's tests use, held to the same conformance suite as bot/boltstore.
// Nothing survives the process.
package memstore

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/fault"
)

var _ digest.Store = (*Store)(nil)

// Store is an in-memory digest.Store, safe for concurrent use. Use New.
type Store struct {
	mu     sync.Mutex
	closed bool
	subs   map[string]digest.Subscription
	runs   map[digest.RunKey]digest.Run
	ledger map[string]map[string]bool // channel → paper ID
}

// New returns an empty store.
func New() *Store {
	return &Store{
		subs:   map[string]digest.Subscription{},
		runs:   map[digest.RunKey]digest.Run{},
		ledger: map[string]map[string]bool{},
	}
}

var errClosed = fmt.Errorf("memstore: store is closed")

// lock takes the mutex; it fails after Close or on a cancelled context.
func (s *Store) lock(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return errClosed
	}
	return nil
}

func (s *Store) Create(ctx context.Context, sub digest.Subscription) error {
	if err := sub.Validate(); err != nil {
		return err
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if _, ok := s.subs[sub.ID]; ok {
		return fmt.Errorf("subscription %s: %w", sub.ID, fault.Exists)
	}
	s.subs[sub.ID] = sub
	return nil
}

func (s *Store) Get(ctx context.Context, id string) (digest.Subscription, error) {
	if err := s.lock(ctx); err != nil {
		return digest.Subscription{}, err
	}
	defer s.mu.Unlock()
	sub, ok := s.subs[id]
	if !ok {
		return digest.Subscription{}, fmt.Errorf("subscription %s: %w", id, fault.NotFound)
	}
	return sub, nil
}

func (s *Store) Delete(ctx context.Context, id string) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if _, ok := s.subs[id]; !ok {
		return fmt.Errorf("subscription %s: %w", id, fault.NotFound)
	}
	delete(s.subs, id)
	return nil
}

func (s *Store) list(ctx context.Context, keep func(digest.Subscription) bool) ([]digest.Subscription, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	var out []digest.Subscription
	for _, sub := range s.subs {
		if keep(sub) {
			out = append(out, sub)
		}
	}
	digest.SortSubscriptions(out)
	return out, nil
}

func (s *Store) ByChannel(ctx context.Context, channelID string) ([]digest.Subscription, error) {
	return s.list(ctx, func(sub digest.Subscription) bool { return sub.ChannelID == channelID })
}

func (s *Store) ByCreator(ctx context.Context, userID string) ([]digest.Subscription, error) {
	return s.list(ctx, func(sub digest.Subscription) bool { return sub.CreatedBy == userID })
}

func (s *Store) Active(ctx context.Context) ([]digest.Subscription, error) {
	return s.list(ctx, func(sub digest.Subscription) bool { return !sub.Paused })
}

func (s *Store) update(ctx context.Context, id string, fn func(*digest.Subscription)) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	sub, ok := s.subs[id]
	if !ok {
		return fmt.Errorf("subscription %s: %w", id, fault.NotFound)
	}
	fn(&sub)
	s.subs[id] = sub
	return nil
}

func (s *Store) Pause(ctx context.Context, id, reason string) error {
	return s.update(ctx, id, func(sub *digest.Subscription) { digest.ApplyPause(sub, reason) })
}

func (s *Store) Resume(ctx context.Context, id string, at time.Time) error {
	return s.update(ctx, id, func(sub *digest.Subscription) { digest.ApplyResume(sub, at) })
}

func (s *Store) PostedIn(ctx context.Context, channelID string, paperIDs []string) (map[string]bool, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	out := map[string]bool{}
	for _, id := range paperIDs {
		if s.ledger[channelID][id] {
			out[id] = true
		}
	}
	return out, nil
}

func copyRun(r digest.Run) digest.Run {
	r.Papers = slices.Clone(r.Papers)
	return r
}

func (s *Store) Claim(ctx context.Context, run digest.Run) (digest.Run, bool, error) {
	if err := digest.ValidateClaim(run); err != nil {
		return digest.Run{}, false, err
	}
	if err := s.lock(ctx); err != nil {
		return digest.Run{}, false, err
	}
	defer s.mu.Unlock()
	if old, ok := s.runs[run.Key]; ok {
		return copyRun(old), false, nil
	}
	run = digest.NewClaim(run)
	s.runs[run.Key] = copyRun(run)
	return run, true, nil
}

func (s *Store) GetRun(ctx context.Context, key digest.RunKey) (digest.Run, error) {
	if err := s.lock(ctx); err != nil {
		return digest.Run{}, err
	}
	defer s.mu.Unlock()
	r, ok := s.runs[key]
	if !ok {
		return digest.Run{}, fmt.Errorf("run %s: %w", key, fault.NotFound)
	}
	return copyRun(r), nil
}

// transition applies a digest.Transition to a stored run under the lock.
func (s *Store) transition(ctx context.Context, key digest.RunKey, fn func(*digest.Run) error) (digest.Run, error) {
	if err := s.lock(ctx); err != nil {
		return digest.Run{}, err
	}
	r, ok := s.runs[key]
	if !ok {
		s.mu.Unlock()
		return digest.Run{}, fmt.Errorf("run %s: %w", key, fault.NotFound)
	}
	if err := fn(&r); err != nil {
		s.mu.Unlock()
		return digest.Run{}, err
	}
	s.runs[key] = copyRun(r)
	s.mu.Unlock()
	return r, nil
}

func (s *Store) Choose(ctx context.Context, key digest.RunKey, paperIDs []string, at time.Time) error {
	_, err := s.transition(ctx, key, func(r *digest.Run) error { return digest.ApplyChoose(r, paperIDs, at) })
	return err
}

func (s *Store) Attempt(ctx context.Context, key digest.RunKey, reason string, at time.Time) error {
	_, err := s.transition(ctx, key, func(r *digest.Run) error { return digest.ApplyAttempt(r, reason, at) })
	return err
}

func (s *Store) MarkPosted(ctx context.Context, key digest.RunKey, ts string, at time.Time) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	r, ok := s.runs[key]
	if !ok {
		return fmt.Errorf("run %s: %w", key, fault.NotFound)
	}
	changed, err := digest.ApplyPosted(&r, ts, at)
	if err != nil || !changed {
		return err
	}
	s.runs[key] = copyRun(r)
	if s.ledger[r.ChannelID] == nil {
		s.ledger[r.ChannelID] = map[string]bool{}
	}
	for _, id := range r.Papers {
		s.ledger[r.ChannelID][id] = true
	}
	if sub, ok := s.subs[key.SubscriptionID]; ok {
		sub.PostedCount += len(r.Papers)
		s.subs[key.SubscriptionID] = sub
	}
	return nil
}

func (s *Store) Finish(ctx context.Context, key digest.RunKey, state digest.RunState, reason string, at time.Time) error {
	_, err := s.transition(ctx, key, func(r *digest.Run) error { return digest.ApplyFinish(r, state, reason, at) })
	return err
}

func (s *Store) Unfinished(ctx context.Context) ([]digest.Run, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	var out []digest.Run
	for _, r := range s.runs {
		if !r.State.Done() {
			out = append(out, copyRun(r))
		}
	}
	digest.SortRuns(out)
	return out, nil
}

// Close makes every later call fail. It is safe to call twice.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	return nil
}
