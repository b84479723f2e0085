package slacktest

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"
)

const wait = 3 * time.Second

// harness runs the real slack-go Socket Mode client against a Server. Every
// event goes to handle (set by the test); by default envelopes are acked.
type harness struct {
	srv *Server
	api *slack.Client
	sm  *socketmode.Client

	mu     sync.Mutex
	handle func(socketmode.Event)
	seen   []socketmode.EventType
	saw    chan struct{} // signalled after every event the client emits
	runErr chan error
}

func newAPI(srv *Server, opts ...slack.Option) *slack.Client {
	base := []slack.Option{
		slack.OptionAPIURL(srv.APIURL()),
		slack.OptionAppLevelToken(srv.AppToken()),
		slack.OptionHTTPClient(&http.Client{Timeout: 5 * time.Second}),
	}
	return slack.New(srv.BotToken(), append(base, opts...)...)
}

// start connects a socketmode client and waits for the first hello.
func start(t *testing.T, opts ...Option) *harness {
	t.Helper()
	h := startUnconnected(t, newAPI, nil, opts...)
	if err := h.srv.WaitConnected(1, wait); err != nil {
		t.Fatalf("client never connected: %v", err)
	}
	return h
}

func startUnconnected(t *testing.T, mkAPI func(*Server, ...slack.Option) *slack.Client, smOpts []socketmode.Option, opts ...Option) *harness {
	t.Helper()
	srv := NewServer(opts...)
	t.Cleanup(srv.Close)
	h := &harness{srv: srv, api: mkAPI(srv), runErr: make(chan error, 1), saw: make(chan struct{}, 1)}
	h.sm = socketmode.New(h.api, smOpts...)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case evt := <-h.sm.Events:
				h.mu.Lock()
				h.seen = append(h.seen, evt.Type)
				handle := h.handle
				h.mu.Unlock()
				select {
				case h.saw <- struct{}{}:
				default:
				}
				if handle != nil {
					handle(evt)
				} else if evt.Request != nil && evt.Request.EnvelopeID != "" {
					_ = h.sm.AckCtx(ctx, evt.Request.EnvelopeID, nil)
				}
			}
		}
	}()
	go func() { h.runErr <- h.sm.RunContext(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-h.runErr:
			if err != nil && !errors.Is(err, context.Canceled) {
				t.Errorf("RunContext: %v", err)
			}
		case <-time.After(wait):
			t.Error("socketmode client did not stop")
		}
	})
	return h
}

func (h *harness) setHandler(f func(socketmode.Event)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.handle = f
}

// waitEvent waits until the client has emitted an event of type typ.
func (h *harness) waitEvent(t *testing.T, typ socketmode.EventType) {
	t.Helper()
	deadline := time.After(wait)
	for {
		h.mu.Lock()
		for _, s := range h.seen {
			if s == typ {
				h.mu.Unlock()
				return
			}
		}
		h.mu.Unlock()
		select {
		case <-h.saw:
		case <-deadline:
			t.Fatalf("client never emitted %s", typ)
		}
	}
}

func (h *harness) ack(req *socketmode.Request, payload any) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = h.sm.AckCtx(ctx, req.EnvelopeID, payload)
}

// slackErr extracts Slack's error name from a slack-go error.
func slackErr(err error) string {
	var se slack.SlackErrorResponse
	if errors.As(err, &se) {
		return se.Err
	}
	if err != nil {
		return err.Error()
	}
	return ""
}
