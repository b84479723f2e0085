package slacktest

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// socketState is the Socket Mode side of the server, guarded by Server.mu.
type socketState struct {
	tickets    map[string]bool // unused apps.connections.open tickets
	conns      map[*wsConn]bool
	current    *wsConn         // receives new envelopes; nil while none is usable
	opened     int             // sockets accepted so far
	turn       int             // WithSpread: count of envelopes spread so far
	lose       map[string]bool // envelope IDs whose next ack LoseAck drops
	loseNext   int             // first deliveries still to come whose ack LoseNextAck drops
	deliveries []Delivery
	queue      []*envelope
	envs       map[string]*envelope
	acks       []Ack
	gate       chan struct{} // non-nil while PauseConnections holds apps.connections.open
	timers     []*time.Timer
	wg         sync.WaitGroup
}

func (st *socketState) init() {
	st.tickets = map[string]bool{}
	st.conns = map[*wsConn]bool{}
	st.envs = map[string]*envelope{}
	st.lose = map[string]bool{}
}

// wsConn is one Socket Mode WebSocket. Frames are queued in pending and written
// by a single writer goroutine, as gorilla/websocket requires.
type wsConn struct {
	ws       *websocket.Conn
	n        int        // 1 for the first socket accepted, 2 for the next...
	pending  []outFrame // guarded by Server.mu
	wake     chan struct{}
	done     chan struct{}
	once     sync.Once
	draining bool // a disconnect frame was sent
}

type outFrame struct {
	data []byte
	env  *envelope // nil for hello/disconnect
}

func (c *wsConn) kill() {
	c.once.Do(func() {
		close(c.done)
		_ = c.ws.Close() // abrupt: no close frame, like a dropped link
	})
}

func (c *wsConn) poke() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

func (st *socketState) liveConns() []*wsConn {
	out := make([]*wsConn, 0, len(st.conns))
	for c := range st.conns {
		out = append(out, c)
	}
	return out
}

func (st *socketState) stopTimers() {
	for _, t := range st.timers {
		t.Stop()
	}
	st.timers = nil
}

// resume opens the PauseConnections gate.
func (st *socketState) resume() {
	if st.gate != nil {
		close(st.gate)
		st.gate = nil
	}
}

// appsConnectionsOpen hands out a single-use WebSocket URL.
func (s *Server) appsConnectionsOpen(*apiRequest) (map[string]any, *apiError) {
	ticket := randomHex(12)
	s.sock.tickets[ticket] = true
	host := strings.TrimPrefix(s.http.URL, "http://")
	return map[string]any{"url": "ws://" + host + "/link/?ticket=" + ticket + "&app_id=" + s.cfg.appID}, nil
}

// waitConnectGate blocks apps.connections.open while PauseConnections holds.
func (s *Server) waitConnectGate(r *http.Request) {
	s.mu.Lock()
	gate := s.sock.gate
	s.mu.Unlock()
	if gate == nil {
		return
	}
	select {
	case <-gate:
	case <-r.Context().Done():
	}
}

var upgrader = websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}

func (s *Server) serveSocket(w http.ResponseWriter, r *http.Request) {
	ticket := r.URL.Query().Get("ticket")
	s.mu.Lock()
	valid := s.sock.tickets[ticket] && !s.closed
	delete(s.sock.tickets, ticket)
	s.mu.Unlock()
	if !valid {
		http.Error(w, "invalid or used ticket", http.StatusUnauthorized)
		return
	}
	ws, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // Upgrade already answered the client
	}
	c := &wsConn{ws: ws, wake: make(chan struct{}, 1), done: make(chan struct{})}

	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		c.kill()
		return
	}
	s.sock.conns[c] = true
	s.sock.opened++
	c.n = s.sock.opened
	s.sock.current = c
	hello, _ := json.Marshal(map[string]any{
		"type": "hello", "num_connections": len(s.sock.conns),
		"debug_info":      map[string]any{"host": "applink-slacktest", "build_number": 1, "approximate_connection_time": 18060},
		"connection_info": map[string]any{"app_id": s.cfg.appID},
	})
	c.pending = append(c.pending, outFrame{data: hello})
	for _, env := range s.sock.queue {
		s.enqueueFrameLocked(c, env)
	}
	s.sock.queue = nil
	s.sock.wg.Add(2)
	s.notifyLocked()
	s.mu.Unlock()

	c.poke()
	go s.writeLoop(c)
	s.readLoop(c)
}

// writeLoop writes queued frames in order and pings every pingInterval.
func (s *Server) writeLoop(c *wsConn) {
	defer s.sock.wg.Done()
	ping := time.NewTicker(s.cfg.pingInterval)
	defer ping.Stop()
	for {
		select {
		case <-c.done:
			return
		case <-ping.C:
			if c.ws.WriteControl(websocket.PingMessage, []byte("ping"), time.Now().Add(5*time.Second)) != nil {
				c.kill()
				return
			}
		case <-c.wake:
			for {
				s.mu.Lock()
				if len(c.pending) == 0 {
					s.mu.Unlock()
					break
				}
				f := c.pending[0]
				c.pending = c.pending[1:]
				if f.env != nil {
					s.markSentLocked(f.env, c)
				}
				s.mu.Unlock()
				_ = c.ws.SetWriteDeadline(time.Now().Add(5 * time.Second))
				if err := c.ws.WriteMessage(websocket.TextMessage, f.data); err != nil {
					c.kill()
					return
				}
			}
		}
	}
}

// readLoop records acks until the socket fails, then retires the connection.
func (s *Server) readLoop(c *wsConn) {
	defer s.sock.wg.Done()
	defer s.retire(c)
	for {
		_, data, err := c.ws.ReadMessage()
		if err != nil {
			return
		}
		var resp struct {
			EnvelopeID string          `json:"envelope_id"`
			Payload    json.RawMessage `json:"payload"`
		}
		if json.Unmarshal(data, &resp) != nil || resp.EnvelopeID == "" {
			continue // Slack ignores frames it cannot read
		}
		s.mu.Lock()
		s.recordAckLocked(resp.EnvelopeID, resp.Payload, len(data))
		s.notifyLocked()
		s.mu.Unlock()
	}
}

// retire forgets a dead connection; envelopes it never wrote go back to the
// queue, in order, for the next socket.
func (s *Server) retire(c *wsConn) {
	c.kill()
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.sock.conns, c)
	var back []*envelope
	for _, f := range c.pending {
		if f.env != nil {
			back = append(back, f.env)
		}
	}
	c.pending = nil
	if s.sock.current == c {
		s.sock.current = s.pickCurrentLocked()
	}
	if target := s.sock.current; target != nil {
		for _, env := range back {
			s.enqueueFrameLocked(target, env)
		}
		target.poke()
	} else {
		s.sock.queue = append(back, s.sock.queue...)
	}
	s.notifyLocked()
}

// pickCurrentLocked returns a live connection that was not told to disconnect.
func (s *Server) pickCurrentLocked() *wsConn {
	for c := range s.sock.conns {
		if !c.draining {
			return c
		}
	}
	return nil
}

// ErrNoSocket is returned by socket faults when no socket is connected.
var ErrNoSocket = errors.New("slacktest: no Socket Mode connection")

// Disconnect sends a disconnect frame with reason ("warning",
// "refresh_requested", "link_disabled", ...) on the current socket. New
// envelopes are queued until the client reconnects.
func (s *Server) Disconnect(reason string) error { return s.disconnect(reason, false) }

// DisconnectLingering sends a disconnect frame but keeps delivering new
// envelopes on the old socket until the client closes it, as Slack may: it
// exercises the window in which slack-go drops envelopes (combine with
// WithRedelivery to see events recovered).
func (s *Server) DisconnectLingering(reason string) error { return s.disconnect(reason, true) }

func (s *Server) disconnect(reason string, linger bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.sock.current
	if c == nil {
		return ErrNoSocket
	}
	frame, _ := json.Marshal(map[string]any{
		"type": "disconnect", "reason": reason,
		"debug_info": map[string]any{"host": "applink-slacktest"},
	})
	c.pending = append(c.pending, outFrame{data: frame})
	c.draining = true
	if !linger {
		s.sock.current = s.pickCurrentLocked()
	}
	c.poke()
	return nil
}

// DropSocket closes the current socket abruptly, without a close frame.
func (s *Server) DropSocket() error {
	s.mu.Lock()
	c := s.sock.current
	s.mu.Unlock()
	if c == nil {
		return ErrNoSocket
	}
	c.kill()
	return nil
}

// PauseConnections makes apps.connections.open wait until ResumeConnections,
// so envelopes pushed meanwhile are certain to be queued for the next socket.
func (s *Server) PauseConnections() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sock.gate == nil {
		s.sock.gate = make(chan struct{})
	}
}

// ResumeConnections releases apps.connections.open calls held by PauseConnections.
func (s *Server) ResumeConnections() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sock.resume()
}

// Connected reports whether a socket is ready to receive envelopes.
func (s *Server) Connected() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sock.current != nil
}

// Connections is the number of sockets accepted so far (1 + reconnects).
func (s *Server) Connections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sock.opened
}

// WaitConnected waits until at least n sockets have been accepted in total and
// one is ready to receive envelopes (n = 1 for the first connection, 2 after
// one reconnect...).
func (s *Server) WaitConnected(n int, timeout time.Duration) error {
	return s.WaitFor(timeout, func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.sock.opened >= n && s.sock.current != nil
	})
}
