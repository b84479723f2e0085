package slacktest

import (
	"encoding/json"
	"fmt"
)

// ActionOpts is a click on an interactive element. The element is looked up
// by ActionID in the message (or Home tab) the user sees, so a test cannot
// click a button the app never rendered; BlockID and Value come from it.
type ActionOpts struct {
	UserID    string // default DefaultUser
	Channel   string // channel of the message; "" searches every channel
	MessageTS string // ts of the message or ephemeral holding the element
	ActionID  string
	Home      bool // click on the user's published Home tab instead of a message
	// UnfurlURL clicks in the app's unfurl of that link in the message,
	// instead of the message's own blocks.
	UnfurlURL string
	// Option is the value of the option chosen in an overflow menu or a
	// select; it must be one the element offers.
	Option string
}

// BlockAction pushes an interactive block_actions envelope like Slack's:
// user, container, channel, the message (not for ephemerals, as in Slack),
// a fresh response_url bound to that message (replace_original and
// delete_original act on it) and a trigger_id. It returns the envelope ID.
func (s *Server) BlockAction(a ActionOpts) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	user := s.ensureUserLocked(orDefault(a.UserID, DefaultUser))
	p := map[string]any{
		"type": "block_actions", "api_app_id": s.cfg.appID, "token": VerificationToken,
		"trigger_id": s.triggerIDLocked(), "enterprise": nil, "is_enterprise_install": false,
		"team":  map[string]any{"id": s.cfg.teamID, "domain": s.cfg.teamDomain},
		"user":  map[string]any{"id": user.ID, "username": user.Name, "name": user.Name, "team_id": s.cfg.teamID},
		"state": map[string]any{"values": map[string]any{}},
	}
	var blocks json.RawMessage
	if a.Home {
		views := s.homeViews[user.ID]
		if len(views) == 0 {
			return "", fmt.Errorf("slacktest: BlockAction: no Home tab published for %s", user.ID)
		}
		v := views[len(views)-1]
		blocks = v.Blocks
		p["container"] = map[string]any{"type": "view", "view_id": v.ID}
		p["view"] = map[string]any{"id": v.ID, "team_id": s.cfg.teamID, "type": "home", "blocks": v.Blocks, "hash": v.Hash, "app_id": s.cfg.appID, "bot_id": s.cfg.botID}
	} else {
		m := s.clickableLocked(a.Channel, a.MessageTS, user.ID)
		if m == nil {
			return "", fmt.Errorf("slacktest: BlockAction: %s sees no message %q in %q", user.ID, a.MessageTS, a.Channel)
		}
		blocks = m.Blocks
		container := map[string]any{"type": "message", "message_ts": m.TS, "channel_id": m.Channel, "is_ephemeral": m.Ephemeral}
		if a.UnfurlURL != "" {
			att, ok := m.Unfurls[a.UnfurlURL]
			var u struct {
				Blocks json.RawMessage `json:"blocks"`
			}
			if !ok || json.Unmarshal(att, &u) != nil {
				return "", fmt.Errorf("slacktest: BlockAction: no unfurl of %s on message %s", a.UnfurlURL, m.TS)
			}
			blocks = u.Blocks
			container = map[string]any{"type": "message_attachment", "message_ts": m.TS, "channel_id": m.Channel,
				"is_ephemeral": false, "is_app_unfurl": true, "app_unfurl_url": a.UnfurlURL}
		}
		if m.ThreadTS != "" {
			container["thread_ts"] = m.ThreadTS
		}
		p["container"] = container
		name := m.Channel
		if ch, ok := s.channels[m.Channel]; ok && ch.Name != "" {
			name = ch.Name
		}
		p["channel"] = map[string]any{"id": m.Channel, "name": name}
		if !m.Ephemeral {
			p["message"] = m.wire(s.cfg.teamID, s.cfg.appID)
		}
		p["response_url"] = s.newResponseURLLocked(m.Channel, user.ID, m)
	}
	el, err := findElement(blocks, a.ActionID)
	if err != nil {
		return "", fmt.Errorf("slacktest: BlockAction: %w", err)
	}
	act := map[string]any{"action_id": a.ActionID, "block_id": el.blockID, "type": el.typ, "action_ts": s.tsLocked()}
	if len(el.text) > 0 {
		act["text"] = el.text
	}
	if el.value != "" {
		act["value"] = el.value
	}
	if a.Option != "" || el.typ == "overflow" {
		opt, ok := el.options[a.Option]
		if !ok {
			return "", fmt.Errorf("slacktest: BlockAction: %s offers no option %q", a.ActionID, a.Option)
		}
		act["selected_option"] = opt
	}
	p["actions"] = []any{act}
	raw, _ := json.Marshal(p)
	return s.pushLocked(&envelope{id: envelopeID(), typ: TypeInteractive, payload: raw}), nil
}

// Click is BlockAction on a recorded message: user clicks actionID in m.
func (s *Server) Click(m Message, user, actionID string) (string, error) {
	return s.BlockAction(ActionOpts{UserID: user, Channel: m.Channel, MessageTS: m.TS, ActionID: actionID})
}

// Choose is BlockAction on a recorded message: user picks the option with
// value in the menu actionID of m.
func (s *Server) Choose(m Message, user, actionID, value string) (string, error) {
	return s.BlockAction(ActionOpts{UserID: user, Channel: m.Channel, MessageTS: m.TS, ActionID: actionID, Option: value})
}

// clickableLocked finds the live message at ts that user can see.
func (s *Server) clickableLocked(channel, ts, user string) *Message {
	for _, m := range s.messages {
		if m.TS == ts && (channel == "" || m.Channel == channel) && !m.Deleted {
			return m
		}
	}
	for _, m := range s.ephemerals {
		if m.TS == ts && (channel == "" || m.Channel == channel) && !m.Deleted && m.Recipient == user {
			return m
		}
	}
	return nil
}
