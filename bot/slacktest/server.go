package slacktest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"
)

// Server is a running loopback Slack. Create it with NewServer and stop it
// with Close. All methods are safe for concurrent use.
type Server struct {
	cfg  config
	http *httptest.Server

	mu      sync.Mutex
	changed chan struct{} // closed and replaced on every recorded change
	closed  bool
	done    chan struct{} // closed by Close, to end slow responses at once
	seq     int           // counter behind generated IDs
	lastTS  time.Time     // last message ts handed out, to keep them unique

	users    map[string]*User
	channels map[string]*Channel
	dms      map[string]string // user ID -> IM channel ID

	messages     []*Message // channel messages in post order, deleted ones kept
	ephemerals   []*Message
	responses    []ResponseURLPost
	responseURLs map[string]*responseURL
	homeViews    map[string][]HomeView
	assistant    map[string]*assistantThread // "channel/thread_ts" of assistant threads
	files        []*File
	calls        []Call

	sock socketState

	faults map[string]*fault // method or "*" -> pending failure
	rates  map[string]*rateLimit
	slow   map[string]time.Duration
}

// NewServer starts a Server on 127.0.0.1 with a random port.
func NewServer(opts ...Option) *Server {
	cfg := defaultConfig()
	for _, o := range opts {
		o(&cfg)
	}
	s := &Server{
		cfg:          cfg,
		changed:      make(chan struct{}),
		done:         make(chan struct{}),
		users:        map[string]*User{},
		channels:     map[string]*Channel{},
		dms:          map[string]string{},
		responseURLs: map[string]*responseURL{},
		homeViews:    map[string][]HomeView{},
		faults:       map[string]*fault{},
		rates:        map[string]*rateLimit{},
		slow:         map[string]time.Duration{},
	}
	s.sock.init()
	s.users[cfg.botUserID] = &User{ID: cfg.botUserID, Name: "paperbot", RealName: "paperbot", TZ: DefaultTZ, IsBot: true}
	mux := http.NewServeMux()
	mux.HandleFunc("/api/", s.serveAPI)
	mux.HandleFunc("/link/", s.serveSocket)
	mux.HandleFunc("/response/", s.serveResponseURL)
	mux.HandleFunc("/upload/", s.serveUpload)
	s.http = httptest.NewServer(mux)
	return s
}

// Close closes every socket, stops redelivery timers and shuts the server
// down. It is safe to call more than once.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	close(s.done)
	conns := s.sock.liveConns()
	s.sock.stopTimers()
	s.sock.resume()
	s.notifyLocked()
	s.mu.Unlock()
	for _, c := range conns {
		c.kill()
	}
	s.sock.wg.Wait()
	s.http.Close()
}

// URL is the server's base URL, e.g. http://127.0.0.1:PORT.
func (s *Server) URL() string { return s.http.URL }

// APIURL is the Web API base URL for slack.OptionAPIURL, with the trailing
// slash slack-go needs: http://127.0.0.1:PORT/api/.
func (s *Server) APIURL() string { return s.http.URL + "/api/" }

// BotToken is the accepted xoxb- token.
func (s *Server) BotToken() string { return s.cfg.botToken }

// AppToken is the accepted xapp- token.
func (s *Server) AppToken() string { return s.cfg.appToken }

// BotUserID is the bot's user ID, as auth.test reports it.
func (s *Server) BotUserID() string { return s.cfg.botUserID }

// BotID is the bot's bot_id, set on every message the bot posts.
func (s *Server) BotID() string { return s.cfg.botID }

// AppID is the app's ID (api_app_id in payloads).
func (s *Server) AppID() string { return s.cfg.appID }

// TeamID is the workspace ID.
func (s *Server) TeamID() string { return s.cfg.teamID }

// notifyLocked wakes every WaitFor. s.mu must be held.
func (s *Server) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// ErrTimeout is returned by the Wait functions when the deadline passes.
var ErrTimeout = errors.New("slacktest: timed out waiting")

// WaitFor blocks until cond returns true or timeout passes. cond is
// re-evaluated after every change the server records (message, ack, call,
// connection) and, as a backstop for conditions on state outside the
// emulator (an app's readiness, say), every recheckInterval. cond runs
// without the server's lock, so it may call any Server method.
func (s *Server) WaitFor(timeout time.Duration, cond func() bool) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return s.WaitForContext(ctx, cond)
}

// recheckInterval bounds how stale WaitFor can be on outside state.
const recheckInterval = 10 * time.Millisecond

// WaitForContext is WaitFor bounded by ctx; it returns ErrTimeout wrapping
// ctx's error when ctx ends first.
func (s *Server) WaitForContext(ctx context.Context, cond func() bool) error {
	tick := time.NewTicker(recheckInterval)
	defer tick.Stop()
	for {
		s.mu.Lock()
		ch := s.changed
		s.mu.Unlock()
		if cond() {
			return nil
		}
		select {
		case <-ch:
		case <-tick.C:
		case <-ctx.Done():
			if cond() {
				return nil
			}
			return fmt.Errorf("%w: %w", ErrTimeout, ctx.Err())
		}
	}
}

// now is the configured clock.
func (s *Server) now() time.Time { return s.cfg.now() }
