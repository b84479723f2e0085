package thread

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/paperbot/paperbot/fault"
)

// Memory is a Store in memory, for a bot without a data directory: contexts
// last until a restart. It holds at most max threads, dropping the one
// closest to expiry first. Use NewMemory.
type Memory struct {
	mu  sync.Mutex
	max int
	m   map[string]Context
}

var _ Store = (*Memory)(nil)

// NewMemory returns an empty Memory holding at most limit threads (at least 1).
func NewMemory(limit int) *Memory { return &Memory{max: max(limit, 1), m: map[string]Context{}} }

// Save keeps c, replacing the thread's earlier context.
func (s *Memory) Save(_ context.Context, c Context) error {
	if err := c.Validate(); err != nil {
		return err
	}
	c.Papers = append([]string(nil), c.Papers...)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[Key(c.Channel, c.TS)] = c
	for len(s.m) > s.max { // O(n), only once full
		oldest := ""
		for k, v := range s.m {
			if oldest == "" || v.Expires.Before(s.m[oldest].Expires) {
				oldest = k
			}
		}
		delete(s.m, oldest)
	}
	return nil
}

// Get returns the context of the thread, unless it expired at now.
func (s *Memory) Get(_ context.Context, channel, ts string, now time.Time) (Context, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.m[Key(channel, ts)]
	if !ok || !now.Before(c.Expires) {
		return Context{}, fmt.Errorf("thread %s: %w", Key(channel, ts), fault.NotFound)
	}
	c.Papers = append([]string(nil), c.Papers...)
	return c, nil
}
