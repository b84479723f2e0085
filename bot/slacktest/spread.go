package slacktest

import (
	"slices"
	"time"
)

// WithSpread makes the server spread envelopes over every open socket of the
// app, as Slack does for an app with several Socket Mode connections (one
// per replica): each envelope goes to exactly one socket, the next in turn (the first
// to the oldest socket),
// and a redelivery goes to a socket other than the one that left it
// unacknowledged, when there is one. Without it every envelope goes to the
// newest socket.
func WithSpread() Option { return func(c *config) { c.spread = true } }

// Delivery is one write of an envelope to a socket.
type Delivery struct {
	EnvelopeID string
	Type       string
	Connection int    // which socket: 1 for the first accepted, 2 for the next...
	Attempt    int    // retry_attempt
	Reason     string // retry_reason, "" on a first attempt
	Original   string // a retry's first envelope ID ("" on a first attempt)
	At         time.Time
}

// Deliveries returns every envelope written to a socket, in write order.
func (s *Server) Deliveries() []Delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.sock.deliveries)
}

// LoseAck drops the next ack of envelopeID, as when a link fails after the
// app wrote it: Slack never sees it, the envelope stays unacknowledged and,
// with WithRedelivery, is retried after the ack window, under WithSpread on
// another socket. The dropped ack is recorded with Lost set.
func (s *Server) LoseAck(envelopeID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sock.lose[envelopeID] = true
}

// LoseNextAck drops the ack of the next envelope the server sends (a first
// delivery, not a retry), as LoseAck does. Unlike LoseAck after the send,
// it cannot lose the race with an app that acks at once.
func (s *Server) LoseNextAck() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sock.loseNext++
}

// OpenConnections is the number of sockets open now.
func (s *Server) OpenConnections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sock.conns)
}

// targetLocked is the socket env goes to: the current one, or under
// WithSpread the next usable one in turn, skipping the one env was last sent
// on when another is usable; nil when none is.
func (s *Server) targetLocked(env *envelope) *wsConn {
	if !s.cfg.spread {
		return s.sock.current
	}
	var usable []*wsConn
	for c := range s.sock.conns {
		if !c.draining && c.isOpen() {
			usable = append(usable, c)
		}
	}
	if len(usable) == 0 {
		return nil
	}
	slices.SortFunc(usable, func(a, b *wsConn) int { return a.n - b.n })
	if len(usable) > 1 && env.conn != nil {
		usable = slices.DeleteFunc(usable, func(c *wsConn) bool { return c == env.conn })
	}
	c := usable[s.sock.turn%len(usable)]
	s.sock.turn++
	return c
}

// isOpen reports whether c is still open.
func (c *wsConn) isOpen() bool {
	select {
	case <-c.done:
		return false
	default:
		return true
	}
}
