package sources

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestNewClientConfig(t *testing.T) {
	tests := []struct {
		name    string
		cfg     Config
		wantErr string
	}{
		{"no contact", Config{}, "contact"},
		{"contact with parenthesis", Config{Contact: "a (b)"}, "parentheses"},
		{"bad base URL", Config{Contact: "ops@example.org", OAIURL: "ftp://mirror/oai"}, "ftp://mirror/oai"},
		{"defaults", Config{Contact: "ops@example.org"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := NewClient(tt.cfg)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one naming %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.cfg.MinInterval != 3*time.Second || c.cfg.OAIURL != DefaultOAIURL || c.cfg.MaxRetries != 3 {
				t.Errorf("defaults %+v", c.cfg)
			}
			if want := "paperbot (+https://github.com/paperbot/paperbot; mailto:ops@example.org)"; c.UserAgent() != want {
				t.Errorf("User-Agent %q, want %q", c.UserAgent(), want)
			}
		})
	}
}

func TestClientSendsUserAgentAndPaces(t *testing.T) {
	var agents []string
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		agents = append(agents, r.UserAgent())
		mu.Unlock()
		fmt.Fprint(w, "ok")
	}))
	defer srv.Close()
	clock := newFakeClock()
	c := newTestClient(t, srv, clock, nil)
	ctx := context.Background()
	for range 3 {
		if _, err := c.get(ctx, srv.URL+"/x", "text/plain"); err != nil {
			t.Fatal(err)
		}
	}
	clock.Advance(10 * time.Second) // a caller that waited long enough does not wait again
	if _, err := c.get(ctx, srv.URL+"/x", "text/plain"); err != nil {
		t.Fatal(err)
	}
	if got, want := clock.Slept(), []time.Duration{3 * time.Second, 3 * time.Second}; !slices.Equal(got, want) {
		t.Errorf("slept %v, want %v", got, want)
	}
	for _, a := range agents {
		if !strings.Contains(a, "mailto:ops@example.org") {
			t.Errorf("User-Agent %q lacks the contact", a)
		}
	}
}

func TestClientOneRequestAtATime(t *testing.T) {
	var inFlight, most atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		fmt.Fprint(w, "ok")
	}))
	defer srv.Close()
	c := newTestClient(t, srv, newFakeClock(), nil)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if _, err := c.get(context.Background(), srv.URL, "text/plain"); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if most.Load() != 1 {
		t.Errorf("%d requests in flight at once, want 1", most.Load())
	}
}

func TestClientRetryAfter(t *testing.T) {
	clockStart := newFakeClock().Now()
	tests := []struct {
		name      string
		failures  int
		status    int
		header    string
		edit      func(*Config)
		wantSlept []time.Duration
		wantErr   bool
		requests  int
	}{
		{"seconds", 1, 503, "7", nil, []time.Duration{7 * time.Second}, false, 2},
		{"http date", 1, 503, clockStart.Add(20 * time.Second).Format(http.TimeFormat), nil, []time.Duration{20 * time.Second}, false, 2},
		{"date in the past still paces", 1, 503, clockStart.Add(-time.Hour).Format(http.TimeFormat), nil, []time.Duration{3 * time.Second}, false, 2},
		{"no header", 1, 503, "", nil, []time.Duration{30 * time.Second}, false, 2},
		{"429", 1, 429, "5", nil, []time.Duration{5 * time.Second}, false, 2},
		{"storm within retries", 3, 503, "10", nil, []time.Duration{10 * time.Second, 10 * time.Second, 10 * time.Second}, false, 4},
		{"storm beyond retries", 9, 503, "10", nil, []time.Duration{10 * time.Second, 10 * time.Second, 10 * time.Second}, true, 4},
		{"no retries", 9, 503, "10", func(c *Config) { c.MaxRetries = -1 }, nil, true, 1},
		{"wait too long", 1, 503, "86400", nil, nil, true, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var requests atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if int(requests.Add(1)) <= tt.failures {
					if tt.header != "" {
						w.Header().Set("Retry-After", tt.header)
					}
					http.Error(w, "busy", tt.status)
					return
				}
				fmt.Fprint(w, "ok")
			}))
			defer srv.Close()
			clock := newFakeClock()
			c := newTestClient(t, srv, clock, tt.edit)
			body, err := c.get(context.Background(), srv.URL, "text/plain")
			if tt.wantErr {
				var he *HTTPError
				if !errors.As(err, &he) || he.Status != tt.status {
					t.Fatalf("err = %v, want HTTP %d", err, tt.status)
				}
				if tt.header == "86400" && he.RetryAfter != 24*time.Hour {
					t.Errorf("RetryAfter %v", he.RetryAfter)
				}
			} else if err != nil || string(body) != "ok" {
				t.Fatalf("got %q, %v", body, err)
			}
			if got := clock.Slept(); !slices.Equal(got, tt.wantSlept) {
				t.Errorf("slept %v, want %v", got, tt.wantSlept)
			}
			if int(requests.Load()) != tt.requests {
				t.Errorf("%d requests, want %d", requests.Load(), tt.requests)
			}
		})
	}
}

func TestClientFailures(t *testing.T) {
	const body = `<?xml version="1.0"?><rss version="2.0"><channel><title>t</title></channel></rss>`
	tests := []struct {
		name    string
		handler http.HandlerFunc
		edit    func(*Config)
		target  error
		status  int
	}{
		{"slow response", func(w http.ResponseWriter, r *http.Request) {
			<-r.Context().Done() // answers only once the client gives up
		}, func(c *Config) { c.Timeout = 50 * time.Millisecond }, context.DeadlineExceeded, 0},
		{"shorter than Content-Length", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			w.Write([]byte(body[:len(body)/2]))
		}, nil, ErrTruncated, 0},
		{"chunked body cut off", func(w http.ResponseWriter, r *http.Request) {
			conn, buf, err := http.NewResponseController(w).Hijack()
			if err != nil {
				t.Error(err)
				return
			}
			defer conn.Close()
			fmt.Fprintf(buf, "HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s", len(body), body[:20])
			buf.Flush()
		}, nil, ErrTruncated, 0},
		{"html page with 200", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, "<!DOCTYPE html><title>Verifying your browser</title>")
		}, nil, ErrUnexpectedContent, 0},
		{"not found", func(w http.ResponseWriter, r *http.Request) {
			http.NotFound(w, r)
		}, nil, nil, 404},
		{"too large", func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, strings.Repeat("x", 2048))
		}, func(c *Config) { c.MaxBody = 1024 }, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.handler)
			defer srv.Close()
			c := newTestClient(t, srv, newFakeClock(), tt.edit)
			_, err := c.get(context.Background(), srv.URL, "application/xml")
			if err == nil {
				t.Fatal("no error")
			}
			if tt.target != nil && !errors.Is(err, tt.target) {
				t.Errorf("err = %v, want %v", err, tt.target)
			}
			var he *HTTPError
			if tt.status != 0 && (!errors.As(err, &he) || he.Status != tt.status) {
				t.Errorf("err = %v, want HTTP %d", err, tt.status)
			}
		})
	}
}

func TestClientCancelledWhileWaiting(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "3600")
		http.Error(w, "busy", http.StatusServiceUnavailable)
		cancel() // the caller gives up while the client waits out Retry-After
	}))
	defer srv.Close()
	clock := newFakeClock()
	// The real sleeper: it must return as soon as ctx ends, not in an hour.
	c := newTestClient(t, srv, clock, func(c *Config) { c.Sleep = nil; c.MaxWait = 2 * time.Hour })
	_, err := c.get(ctx, srv.URL, "text/plain")
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestClientQueuedCallerCancelled(t *testing.T) {
	entered := make(chan struct{})
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			close(entered)
			<-release
		}
		fmt.Fprint(w, "ok")
	}))
	defer srv.Close()
	c := newTestClient(t, srv, newFakeClock(), nil)
	done := make(chan error, 1)
	go func() {
		_, err := c.get(context.Background(), srv.URL+"/slow", "text/plain")
		done <- err
	}()
	<-entered
	// A second caller queues behind the first; its context ending must free it.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.get(ctx, srv.URL+"/fast", "text/plain"); !errors.Is(err, context.Canceled) {
		t.Errorf("queued caller: err = %v, want context.Canceled", err)
	}
	release <- struct{}{}
	if err := <-done; err != nil {
		t.Errorf("first caller: %v", err)
	}
}

func TestSite(t *testing.T) {
	tests := map[string]string{
		"export.arxiv.org":    "arxiv.org",
		"oaipmh.arxiv.org":    "arxiv.org",
		"rss.arxiv.org":       "arxiv.org",
		"api2.openreview.net": "openreview.net",
		"arxiv.org":           "arxiv.org",
		"127.0.0.1":           "127.0.0.1",
		"::1":                 "::1",
		"localhost":           "localhost",
	}
	for host, want := range tests {
		if got := site(host); got != want {
			t.Errorf("site(%q) = %q, want %q", host, got, want)
		}
	}
}
