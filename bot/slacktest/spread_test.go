package slacktest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"
)

// replica is one real slack-go Socket Mode client of the app, as one
// replica of a bot would run it, recording what it was handed.
type replica struct {
	sm *socketmode.Client

	mu    sync.Mutex
	got   []socketmode.Request // envelopes, in arrival order
	noAck bool                 // true: never ack events_api envelopes
}

// connectReplica runs another Socket Mode client against srv and waits until
// srv has accepted its socket (the n-th in all).
func connectReplica(t *testing.T, srv *Server, n int, noAck bool) *replica {
	t.Helper()
	r := &replica{sm: socketmode.New(newAPI(srv)), noAck: noAck}
	ctx, cancel := context.WithCancel(context.Background())
	runErr := make(chan error, 1)
	go func() { runErr <- r.sm.RunContext(ctx) }()
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case evt := <-r.sm.Events:
				if evt.Request == nil || evt.Request.EnvelopeID == "" {
					continue
				}
				r.mu.Lock()
				r.got = append(r.got, *evt.Request)
				skip := r.noAck && evt.Type == socketmode.EventTypeEventsAPI
				r.mu.Unlock()
				if !skip {
					_ = r.sm.AckCtx(ctx, evt.Request.EnvelopeID, nil)
				}
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-runErr:
			if err != nil && !errors.Is(err, context.Canceled) {
				t.Errorf("RunContext: %v", err)
			}
		case <-time.After(wait):
			t.Error("socketmode client did not stop")
		}
	})
	if err := srv.WaitFor(wait, func() bool { return srv.OpenConnections() >= n && srv.Connections() >= n }); err != nil {
		t.Fatalf("replica %d never connected: %v", n, err)
	}
	return r
}

func (r *replica) requests() []socketmode.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]socketmode.Request(nil), r.got...)
}

// eventID is the event_id of an events_api request.
func eventID(t *testing.T, req socketmode.Request) string {
	t.Helper()
	ev, err := slackevents.ParseEvent(req.Payload, slackevents.OptionNoVerifyToken())
	if err != nil {
		t.Fatalf("envelope %s: %v", req.EnvelopeID, err)
	}
	return ev.Data.(*slackevents.EventsAPICallbackEvent).EventID
}

// Under WithSpread, three connections of one app share the envelopes: each
// is handed to exactly one of them, and every connection gets its turn.
func TestSpreadHandsEachEnvelopeToOneConnection(t *testing.T) {
	srv := NewServer(WithSpread())
	t.Cleanup(srv.Close)
	var reps []*replica
	for n := 1; n <= 3; n++ {
		reps = append(reps, connectReplica(t, srv, n, false))
	}
	const sent = 30
	var envs []string
	for i := range sent {
		if i%2 == 0 {
			envs = append(envs, srv.SlashCommand(CommandOpts{Text: fmt.Sprint("q", i)}))
		} else {
			env, _ := srv.Mention("", "", fmt.Sprint("q", i))
			envs = append(envs, env)
		}
	}
	for _, env := range envs {
		if _, err := srv.WaitAck(env, wait); err != nil {
			t.Fatal(err)
		}
	}
	where := map[string]int{} // envelope ID -> replicas that got it
	for i, r := range reps {
		got := r.requests()
		if len(got) == 0 {
			t.Errorf("connection %d got nothing of %d envelopes", i+1, sent)
		}
		for _, req := range got {
			where[req.EnvelopeID]++
		}
	}
	for _, env := range envs {
		if where[env] != 1 {
			t.Errorf("envelope %s reached %d connections, want 1", env, where[env])
		}
	}
	if d := srv.Deliveries(); len(d) != sent {
		t.Errorf("%d deliveries recorded, want %d", len(d), sent)
	}
}

// An envelope whose ack Slack never sees, or that the app does not ack, is
// sent again after the ack window on the other connection, with a new
// envelope ID, retry_attempt 1, retry_reason "timeout" and the same event_id.
func TestSpreadRedeliversUnackedOnAnotherConnection(t *testing.T) {
	for _, tc := range []struct {
		name string
		lose bool // the ack is lost in transit, rather than never sent
	}{
		{"ack lost in transit", true},
		{"never acked", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := NewServer(WithSpread(), WithRedelivery(100*time.Millisecond, 2))
			t.Cleanup(srv.Close)
			// With a lost ack, both connections ack; otherwise the
			// first never acks events.
			reps := []*replica{connectReplica(t, srv, 1, !tc.lose), connectReplica(t, srv, 2, false)}
			// In turn, the first envelope goes to the first connection.
			if tc.lose {
				srv.LoseNextAck()
			}
			first, _ := srv.Mention("", "", "attention sinks")
			if err := srv.WaitFor(wait, func() bool { return len(srv.Deliveries()) > 0 }); err != nil {
				t.Fatal(err)
			}
			if d := srv.Deliveries()[0]; d.EnvelopeID != first || d.Connection != 1 {
				t.Fatalf("first delivery %+v, want %s on connection 1", d, first)
			}
			var retry socketmode.Request
			err := srv.WaitFor(wait, func() bool {
				for _, req := range reps[1].requests() {
					if req.RetryAttempt == 1 {
						retry = req
						return true
					}
				}
				return false
			})
			if err != nil {
				t.Fatalf("no retry reached connection 2: %v\ndeliveries %+v", err, srv.Deliveries())
			}
			orig := reps[0].requests()[len(reps[0].requests())-1]
			if orig.EnvelopeID != first {
				t.Fatalf("connection 1's last envelope is %s, want %s", orig.EnvelopeID, first)
			}
			if retry.EnvelopeID == first || retry.RetryReason != "timeout" || eventID(t, retry) != eventID(t, orig) {
				t.Fatalf("retry %+v of %s: want a new envelope ID, reason timeout, event_id %s", retry, first, eventID(t, orig))
			}
			if _, err := srv.WaitAck(retry.EnvelopeID, wait); err != nil {
				t.Fatal(err)
			}
			// Acked, so no further attempt: the first connection's socket
			// saw the event once, the second once.
			for i, r := range reps {
				n := 0
				for _, req := range r.requests() {
					if req.Type == TypeEventsAPI && eventID(t, req) == eventID(t, orig) {
						n++
					}
				}
				if n != 1 {
					t.Errorf("connection %d got the event %d times, want 1", i+1, n)
				}
			}
			lost := 0
			for _, a := range srv.Acks() {
				if a.Lost {
					lost++
				}
			}
			if want := map[bool]int{true: 1, false: 0}[tc.lose]; lost != want {
				t.Errorf("%d acks recorded as lost, want %d", lost, want)
			}
		})
	}
}

// When one connection goes away, the next envelopes all go to the others.
func TestSpreadSkipsAClosedConnection(t *testing.T) {
	srv := NewServer(WithSpread())
	t.Cleanup(srv.Close)
	connectReplica(t, srv, 1, false)
	b := connectReplica(t, srv, 2, false)
	if err := srv.DropSocket(); err != nil { // the newest: connection 2
		t.Fatal(err)
	}
	if err := srv.WaitFor(wait, func() bool { return srv.OpenConnections() == 2 && srv.Connections() == 3 }); err != nil {
		t.Fatalf("the dropped replica did not reconnect: %v", err)
	}
	before := len(b.requests())
	for range 6 {
		if _, err := srv.WaitAck(srv.SlashCommand(CommandOpts{}), wait); err != nil {
			t.Fatal(err)
		}
	}
	per := map[int]int{}
	for _, d := range srv.Deliveries() {
		per[d.Connection]++
	}
	if per[2] != 0 || per[1] != 3 || per[3] != 3 {
		t.Fatalf("deliveries per connection %v, want 3 each on 1 and 3, none on the dropped 2", per)
	}
	if len(b.requests()) != before+3 {
		t.Fatalf("the reconnected replica got %d envelopes, want 3", len(b.requests())-before)
	}
}
