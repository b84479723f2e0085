package slacktest

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
)

// idLocked returns a Slack-style ID: prefix plus upper-case base-36 digits,
// unique within the server. s.mu must be held.
func (s *Server) idLocked(prefix string) string {
	s.seq++
	return prefix + strings.ToUpper(fmt.Sprintf("%08s", fmt.Sprintf("%x", s.seq)))
}

// envelopeID returns a random UUID-shaped envelope ID, as Slack sends.
func envelopeID() string {
	b := randomBytes(16)
	h := hex.EncodeToString(b)
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

func randomHex(n int) string { return hex.EncodeToString(randomBytes(n)) }

func randomBytes(n int) []byte {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("slacktest: crypto/rand failed: " + err.Error()) // never fails on supported platforms
	}
	return b
}

// tsLocked returns a new message timestamp ("1700000000.000100"), strictly
// after every earlier one even when the clock stands still. s.mu must be held.
func (s *Server) tsLocked() string {
	t := s.now().Truncate(time.Microsecond)
	if !t.After(s.lastTS) {
		t = s.lastTS.Add(time.Microsecond)
	}
	s.lastTS = t
	return formatTS(t)
}

func formatTS(t time.Time) string {
	return fmt.Sprintf("%d.%06d", t.Unix(), t.Nanosecond()/1000)
}

// triggerIDLocked returns a trigger_id like Slack's "1234.5678.abcdef".
func (s *Server) triggerIDLocked() string {
	s.seq++
	return fmt.Sprintf("%d.%d.%s", s.now().Unix(), s.seq, randomHex(8))
}
