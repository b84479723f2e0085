package slacktest

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"sort"
	"time"
)

// Envelope types, as Slack names them.
const (
	TypeSlashCommands = "slash_commands"
	TypeEventsAPI     = "events_api"
	TypeInteractive   = "interactive"
)

// maxAckBytes is Slack's limit on a Socket Mode response frame.
const maxAckBytes = 20 * 1024

// envelope is one delivery unit pushed to the app.
type envelope struct {
	id              string
	typ             string
	payload         json.RawMessage
	retryAttempt    int
	retryReason     string
	acceptsResponse bool
	responseURL     string // token of the slash command's response_url
	sentAt          time.Time
	sends           int
	conn            *wsConn // socket of the latest send; a retry avoids it under WithSpread
	original        string  // envelope ID of the first attempt, on a retry
	acked           bool
	ack             Ack
}

// Ack is an acknowledgement the app sent for an envelope.
type Ack struct {
	EnvelopeID string
	Type       string          // envelope type
	Attempt    int             // retry_attempt of the delivery that was acked
	SentAt     time.Time       // when the envelope was last written to a socket
	ReceivedAt time.Time       // when the ack was read
	Latency    time.Duration   // ReceivedAt - SentAt (real clock)
	Payload    json.RawMessage // nil when the ack carried none
	Duplicate  bool            // the envelope had already been acked
	Lost       bool            // dropped by LoseAck: the envelope stays unacknowledged
	Err        string          // why Slack would refuse the payload (invalid_blocks, payload_too_large, ...)
}

func (e *envelope) frame() []byte {
	b, _ := json.Marshal(map[string]any{
		"envelope_id": e.id, "type": e.typ, "payload": e.payload,
		"accepts_response_payload": e.acceptsResponse,
		"retry_attempt":            e.retryAttempt, "retry_reason": e.retryReason,
	})
	return b
}

// pushLocked registers env and sends it on the current socket (under
// WithSpread, the next one in turn), or queues it.
func (s *Server) pushLocked(env *envelope) string {
	s.sock.envs[env.id] = env
	if s.sock.loseNext > 0 && env.original == "" {
		s.sock.loseNext--
		s.sock.lose[env.id] = true
	}
	if c := s.targetLocked(env); c != nil {
		env.conn = c
		s.enqueueFrameLocked(c, env)
		c.poke()
	} else {
		s.sock.queue = append(s.sock.queue, env)
	}
	s.notifyLocked()
	return env.id
}

func (s *Server) enqueueFrameLocked(c *wsConn, env *envelope) {
	c.pending = append(c.pending, outFrame{data: env.frame(), env: env})
}

// markSentLocked stamps the send time and arms Slack-style redelivery.
func (s *Server) markSentLocked(env *envelope, c *wsConn) {
	env.sentAt = time.Now()
	env.sends++
	env.conn = c
	s.sock.deliveries = append(s.sock.deliveries, Delivery{EnvelopeID: env.id, Type: env.typ, Connection: c.n,
		Attempt: env.retryAttempt, Reason: env.retryReason, Original: env.original, At: env.sentAt})
	if env.typ != TypeEventsAPI || s.cfg.redeliverAfter <= 0 || env.retryAttempt >= s.cfg.redeliverMax {
		return
	}
	sent := env.sentAt
	t := time.AfterFunc(s.cfg.redeliverAfter, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if !s.closed && !env.acked && env.sentAt.Equal(sent) {
			s.pushLocked(s.retryOfLocked(env))
		}
	})
	s.sock.timers = append(s.sock.timers, t)
}

// retryOfLocked copies env as Slack's next attempt: new envelope ID, same payload.
func (s *Server) retryOfLocked(env *envelope) *envelope {
	return &envelope{
		id: envelopeID(), typ: env.typ, payload: env.payload,
		retryAttempt: env.retryAttempt + 1, retryReason: "timeout",
		acceptsResponse: env.acceptsResponse, responseURL: env.responseURL, conn: env.conn,
		original: cmp.Or(env.original, env.id),
	}
}

// recordAckLocked records an ack and, for slash commands, shows its payload
// to the user like Slack does.
func (s *Server) recordAckLocked(id string, payload json.RawMessage, size int) {
	a := Ack{EnvelopeID: id, ReceivedAt: time.Now()}
	if p := bytes.TrimSpace(payload); len(p) > 0 && !bytes.Equal(p, []byte("null")) {
		a.Payload = payload
	}
	env, ok := s.sock.envs[id]
	if !ok {
		a.Err = "unknown_envelope"
		s.sock.acks = append(s.sock.acks, a)
		return
	}
	if s.sock.lose[id] {
		delete(s.sock.lose, id)
		a.Type, a.Attempt, a.SentAt, a.Lost = env.typ, env.retryAttempt, env.sentAt, true
		s.sock.acks = append(s.sock.acks, a)
		return
	}
	a.Type, a.Attempt, a.SentAt = env.typ, env.retryAttempt, env.sentAt
	a.Latency = a.ReceivedAt.Sub(env.sentAt)
	a.Duplicate = env.acked
	switch {
	case size >= maxAckBytes:
		a.Err = "payload_too_large"
	case a.Payload != nil && env.typ == TypeSlashCommands && !a.Duplicate:
		if ru := s.responseURLs[env.responseURL]; ru != nil {
			if e := s.respondLocked(ru, a.Payload, "ack"); e != nil {
				a.Err = e.code
			}
		}
	}
	if !env.acked {
		env.acked, env.ack = true, a
	}
	s.sock.acks = append(s.sock.acks, a)
}

// SendEnvelope pushes an envelope of type typ with a raw payload and returns
// its envelope ID. It is the escape hatch for payloads the helpers do not build.
func (s *Server) SendEnvelope(typ string, payload json.RawMessage) (string, error) {
	if !json.Valid(payload) {
		return "", fmt.Errorf("slacktest: SendEnvelope: payload is not valid JSON")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pushLocked(&envelope{id: envelopeID(), typ: typ, payload: payload, acceptsResponse: typ == TypeSlashCommands}), nil
}

// SendEvent pushes an events_api envelope with a raw event_callback payload.
func (s *Server) SendEvent(payload json.RawMessage) (string, error) {
	return s.SendEnvelope(TypeEventsAPI, payload)
}

// Redeliver sends envelopeID's payload again as Slack's retry would: a new
// envelope ID, retry_attempt + 1, retry_reason "timeout", the same event_id.
// It returns the new envelope ID.
func (s *Server) Redeliver(envelopeID string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	env, ok := s.sock.envs[envelopeID]
	if !ok {
		return "", fmt.Errorf("slacktest: Redeliver: unknown envelope %q", envelopeID)
	}
	return s.pushLocked(s.retryOfLocked(env)), nil
}

// RedeliverSameEnvelope sends envelopeID again under the same envelope ID
// (Slack sometimes does), with retry_attempt + 1. WaitAck then waits for the
// ack of this new delivery.
func (s *Server) RedeliverSameEnvelope(envelopeID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	env, ok := s.sock.envs[envelopeID]
	if !ok {
		return fmt.Errorf("slacktest: RedeliverSameEnvelope: unknown envelope %q", envelopeID)
	}
	env.retryAttempt++
	env.retryReason = "timeout"
	env.acked = false
	s.pushLocked(env)
	return nil
}

// WaitAck waits until the latest delivery of envelopeID is acknowledged and
// returns that ack.
func (s *Server) WaitAck(envelopeID string, timeout time.Duration) (Ack, error) {
	var a Ack
	err := s.WaitFor(timeout, func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		env, ok := s.sock.envs[envelopeID]
		if ok && env.acked {
			a = env.ack
		}
		return ok && env.acked
	})
	if err != nil {
		return a, fmt.Errorf("ack of envelope %s: %w", envelopeID, err)
	}
	return a, nil
}

// Acks returns every ack received, in arrival order.
func (s *Server) Acks() []Ack {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Ack(nil), s.sock.acks...)
}

// Unacked returns the IDs of envelopes pushed but not (yet) acknowledged.
func (s *Server) Unacked() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for id, env := range s.sock.envs {
		if !env.acked {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}

// Queued is the number of envelopes waiting for a socket.
func (s *Server) Queued() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sock.queue)
}
