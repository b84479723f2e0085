package slacktest

import (
	"encoding/json"
	"fmt"
)

// ShortcutOpts is a message shortcut a user runs from a message's menu.
type ShortcutOpts struct {
	UserID     string // default DefaultUser
	Channel    string
	MessageTS  string // the message the shortcut runs on; it must exist
	CallbackID string
}

// MessageShortcut pushes an interactive message_action envelope like
// Slack's: callback_id, the message (text, user, ts, files flag), its
// channel, a response_url answering in that conversation and a trigger_id.
// It returns the envelope ID; a message nobody can see is an error.
func (s *Server) MessageShortcut(o ShortcutOpts) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	user := s.ensureUserLocked(orDefault(o.UserID, DefaultUser))
	m := s.clickableLocked(o.Channel, o.MessageTS, user.ID)
	if m == nil || m.Ephemeral {
		return "", fmt.Errorf("slacktest: MessageShortcut: %s sees no message %q in %q", user.ID, o.MessageTS, o.Channel)
	}
	name := m.Channel
	if ch, ok := s.channels[m.Channel]; ok && ch.Name != "" {
		name = ch.Name
	}
	p := map[string]any{
		"type": "message_action", "callback_id": o.CallbackID, "token": VerificationToken,
		"trigger_id": s.triggerIDLocked(), "action_ts": s.tsLocked(), "message_ts": m.TS,
		"team":                  map[string]any{"id": s.cfg.teamID, "domain": s.cfg.teamDomain},
		"user":                  map[string]any{"id": user.ID, "username": user.Name, "name": user.Name, "team_id": s.cfg.teamID},
		"channel":               map[string]any{"id": m.Channel, "name": name},
		"message":               m.wire(s.cfg.teamID, s.cfg.appID),
		"response_url":          s.newResponseURLLocked(m.Channel, user.ID, nil),
		"is_enterprise_install": false, "enterprise": nil,
	}
	raw, _ := json.Marshal(p)
	return s.pushLocked(&envelope{id: envelopeID(), typ: TypeInteractive, payload: raw}), nil
}

// FileMessage records a user's message that is only a file (no text), as
// Slack posts an upload with no comment, and pushes nothing: apps see it
// through a shortcut or history.
func (s *Server) FileMessage(channel, user, fileName string) (ts string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.ensureChannelLocked(orDefault(channel, DefaultChannel))
	m := s.userMessageLocked(ch.ID, orDefault(user, DefaultUser), "", "")
	m.Blocks = nil
	m.Files = []string{fileName}
	return m.TS
}
