package sources

import (
	"context"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// fakeClock is an injected clock whose Sleep returns at once, advancing
// time, so tests of pacing and Retry-After take no real time.
type fakeClock struct {
	mu    sync.Mutex
	now   time.Time
	slept []time.Duration
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 9, 24, 6, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	c.slept = append(c.slept, d)
	return nil
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func (c *fakeClock) Slept() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.slept...)
}

// newTestClient returns a client whose every service is srv, on clock.
func newTestClient(t *testing.T, srv *httptest.Server, clock *fakeClock, edit func(*Config)) *Client {
	t.Helper()
	cfg := Config{
		Contact:       "ops@example.org",
		RSSURL:        srv.URL + "/rss",
		OAIURL:        srv.URL + "/oai",
		APIURL:        srv.URL + "/api/query",
		OpenReviewURL: srv.URL,
		HTTPClient:    srv.Client(),
		Now:           clock.Now,
		Sleep:         clock.Sleep,
	}
	if edit != nil {
		edit(&cfg)
	}
	c, err := NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
