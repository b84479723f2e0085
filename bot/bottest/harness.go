package bottest

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/slacktest"
)

// Wait bounds every wait on the emulator: generous for a loaded CI machine.
const Wait = 10 * time.Second

// App is what the harness runs: *bot.Bot, or anything that serves Slack the
// same way. Run serves until ctx ends; Ready reports it can answer.
type App interface {
	Run(ctx context.Context) error
	Ready() bool
}

// Harness runs an App against a fresh slacktest Server. Its methods fail
// the test (t.Fatalf) when what they wait for does not happen within Wait.
type Harness struct {
	T    testing.TB
	Srv  *slacktest.Server
	Logs *Buffer
	// StopGrace is how much longer than Wait Stop waits for Run to return
	// (the app's own shutdown grace).
	StopGrace time.Duration

	app    App
	cancel context.CancelFunc
	done   chan error
}

// New starts an emulator with opts, closed when the test ends. Build the
// app against h.Srv (its tokens and API URL) and h.Logger, then Run or
// Start it.
func New(t testing.TB, opts ...slacktest.Option) *Harness {
	t.Helper()
	srv := slacktest.NewServer(opts...)
	t.Cleanup(srv.Close)
	return &Harness{T: t, Srv: srv, Logs: &Buffer{}, done: make(chan error, 1)}
}

// Logger logs into h.Logs at info, and with PAPERBOT_TEST_DEBUG set at debug
// to stderr as well.
func (h *Harness) Logger() *slog.Logger {
	level := slog.LevelInfo
	var w io.Writer = h.Logs
	if os.Getenv("PAPERBOT_TEST_DEBUG") != "" {
		level = slog.LevelDebug
		w = io.MultiWriter(h.Logs, os.Stderr)
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}))
}

// Run starts app.Run; the test's cleanup stops it.
func (h *Harness) Run(app App) {
	ctx, cancel := context.WithCancel(context.Background())
	h.app, h.cancel = app, cancel
	go func() { h.done <- app.Run(ctx) }()
	h.T.Cleanup(func() { h.Stop() })
}

// Start runs app and waits until it is connected and ready.
func (h *Harness) Start(app App) {
	h.T.Helper()
	h.Run(app)
	if err := h.Srv.WaitConnected(1, Wait); err != nil {
		h.T.Fatalf("app never connected: %v\nlogs:\n%s", err, h.Logs)
	}
	WaitUntil(h.T, "app ready", app.Ready)
}

// Stop cancels Run and returns its result (once; later calls return nil).
func (h *Harness) Stop() error {
	if h.cancel == nil {
		return nil
	}
	h.cancel()
	h.cancel = nil
	select {
	case err := <-h.done:
		return err
	case <-time.After(Wait + h.StopGrace):
		h.T.Errorf("Run did not return after cancel")
		return errors.New("Run did not return")
	}
}

// WaitUntil polls cond (for state outside the emulator, which cannot wake
// Server.WaitFor) until it holds, failing the test after Wait.
func WaitUntil(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(Wait)
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		<-tick.C
	}
}
