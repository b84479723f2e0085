package slacktest

import (
	"encoding/json"
	"fmt"
)

// VerificationToken is the legacy token Slack puts in payloads.
const VerificationToken = "slacktest-verification-token"

// channelType is the channel_type of message events.
func (c *Channel) channelType() string {
	switch {
	case c.IM:
		return "im"
	case c.Private:
		return "group"
	default:
		return "channel"
	}
}

// eventLocked wraps an inner event in Slack's event_callback and pushes it.
func (s *Server) eventLocked(event map[string]any) (envID, eventID string) {
	eventID = s.idLocked("Ev")
	outer := map[string]any{
		"token": VerificationToken, "team_id": s.cfg.teamID, "api_app_id": s.cfg.appID,
		"event": event, "type": "event_callback", "event_id": eventID,
		"event_time": s.now().Unix(), "event_context": "4-" + randomHex(20),
		"is_ext_shared_channel": false,
		"authorizations": []map[string]any{{
			"enterprise_id": nil, "team_id": s.cfg.teamID, "user_id": s.cfg.botUserID,
			"is_bot": true, "is_enterprise_install": false,
		}},
	}
	raw, _ := json.Marshal(outer)
	envID = s.pushLocked(&envelope{id: envelopeID(), typ: TypeEventsAPI, payload: raw})
	return envID, eventID
}

// userMessageEvent is the inner event of a human message, recorded as m.
func (s *Server) userMessageEvent(kind string, m *Message) map[string]any {
	ev := map[string]any{
		"type": kind, "user": m.User, "text": m.Text, "ts": m.TS, "event_ts": m.TS,
		"channel": m.Channel, "team": s.cfg.teamID, "client_msg_id": envelopeID(),
		"blocks": json.RawMessage(m.Blocks),
	}
	if m.ThreadTS != "" {
		ev["thread_ts"] = m.ThreadTS
	}
	return ev
}

// richText renders text as the rich_text block Slack attaches to user messages.
func richText(text string) json.RawMessage {
	b, _ := json.Marshal([]map[string]any{{
		"type": "rich_text", "block_id": randomHex(3),
		"elements": []map[string]any{{
			"type":     "rich_text_section",
			"elements": []map[string]any{{"type": "text", "text": text}},
		}},
	}})
	return b
}

// element is an interactive element found in a message or view.
type element struct {
	blockID string
	typ     string
	text    json.RawMessage
	value   string
	options map[string]json.RawMessage // option value → option, for menus
}

// findElement looks for the element with actionID in a blocks array (actions
// elements and section accessories), like a user finding the button to click.
func findElement(blocks json.RawMessage, actionID string) (element, error) {
	var list []struct {
		Type      string            `json:"type"`
		BlockID   string            `json:"block_id"`
		Elements  []json.RawMessage `json:"elements"`
		Accessory json.RawMessage   `json:"accessory"`
	}
	if len(blocks) == 0 || json.Unmarshal(blocks, &list) != nil {
		return element{}, fmt.Errorf("no blocks to click in")
	}
	for i, b := range list {
		candidates := b.Elements
		if len(b.Accessory) > 0 {
			candidates = append(candidates, b.Accessory)
		}
		for _, raw := range candidates {
			var e struct {
				Type     string            `json:"type"`
				ActionID string            `json:"action_id"`
				Text     json.RawMessage   `json:"text"`
				Value    string            `json:"value"`
				Options  []json.RawMessage `json:"options"`
			}
			if json.Unmarshal(raw, &e) != nil || e.ActionID != actionID {
				continue
			}
			id := b.BlockID
			if id == "" {
				id = fmt.Sprintf("slacktest-block-%d", i) // Slack assigns one when the app gave none
			}
			el := element{blockID: id, typ: e.Type, text: e.Text, value: e.Value, options: map[string]json.RawMessage{}}
			for _, o := range e.Options {
				var v struct {
					Value string `json:"value"`
				}
				if json.Unmarshal(o, &v) == nil {
					el.options[v.Value] = o
				}
			}
			return el, nil
		}
	}
	return element{}, fmt.Errorf("no element with action_id %q", actionID)
}
