package slacktest

import (
	"encoding/json"
	"fmt"
	"net/url"
	"time"
)

// Message is a message as the emulator recorded it: posted by the bot (Web
// API, response_url or a slash-command ack) or by a simulated user.
type Message struct {
	Channel   string
	TS        string
	ThreadTS  string // parent ts for a thread reply, "" at top level
	User      string // author: the bot's user ID for bot posts
	BotID     string // set on bot posts
	Text      string
	Blocks    json.RawMessage // the blocks JSON array as received; nil when none
	Metadata  *Metadata
	Ephemeral bool
	Recipient string     // the only user who sees an ephemeral message
	Source    string     // "chat.postMessage", "chat.postEphemeral", "response_url", "ack" or "user"
	Params    url.Values // request parameters of Web API posts (unfurl_links, ...), token removed
	Edits     int        // times replaced by chat.update or replace_original
	Deleted   bool
	PostedAt  time.Time // server clock
	// Unfurls are the app's chat.unfurl attachments for the message's
	// links, by URL, as received.
	Unfurls map[string]json.RawMessage
	// Files names the files a user's message carries (an upload).
	Files []string
	// reactions holds "user name" → whether that reaction is on (React).
	reactions map[string]bool
}

// Metadata is Slack message metadata (chat.postMessage metadata argument).
type Metadata struct {
	EventType    string         `json:"event_type"`
	EventPayload map[string]any `json:"event_payload"`
}

// HomeView is one views.publish of a Home tab.
type HomeView struct {
	ID     string
	User   string
	Hash   string
	View   json.RawMessage // the view object as received
	Blocks json.RawMessage
	At     time.Time
}

// Messages returns the live (not deleted) messages of channel, thread replies
// included, in the order they were posted. Ephemerals are not included.
func (s *Server) Messages(channel string) []Message {
	return s.collect(&s.messages, func(m *Message) bool { return m.Channel == channel && !m.Deleted })
}

// Thread returns the live replies in channel under parent ts, oldest first.
func (s *Server) Thread(channel, ts string) []Message {
	return s.collect(&s.messages, func(m *Message) bool {
		return m.Channel == channel && m.ThreadTS == ts && m.TS != ts && !m.Deleted
	})
}

// AllMessages returns every channel message ever posted, deleted ones too.
func (s *Server) AllMessages() []Message {
	return s.collect(&s.messages, func(*Message) bool { return true })
}

// Ephemerals returns the live ephemeral messages user saw in channel ("" for
// any channel or any user).
func (s *Server) Ephemerals(channel, user string) []Message {
	return s.collect(&s.ephemerals, func(m *Message) bool {
		return (channel == "" || m.Channel == channel) && (user == "" || m.Recipient == user) && !m.Deleted
	})
}

// HomeViews returns the Home tab views published for user, oldest first.
func (s *Server) HomeViews(user string) []HomeView {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]HomeView(nil), s.homeViews[user]...)
}

// WaitForMessage waits until some live message or ephemeral satisfies match
// and returns the first that does.
func (s *Server) WaitForMessage(timeout time.Duration, match func(Message) bool) (Message, error) {
	var found Message
	err := s.WaitFor(timeout, func() bool {
		for _, list := range [][]Message{s.AllMessages(), s.Ephemerals("", "")} {
			for _, m := range list {
				if !m.Deleted && match(m) {
					found = m
					return true
				}
			}
		}
		return false
	})
	return found, err
}

func (s *Server) collect(list *[]*Message, keep func(*Message) bool) []Message {
	s.mu.Lock() // before reading *list: posts append to it
	defer s.mu.Unlock()
	var out []Message
	for _, m := range *list {
		if keep(m) {
			out = append(out, *m)
		}
	}
	return out
}

// findLocked returns the live channel message at ts.
func (s *Server) findLocked(channel, ts string) *Message {
	for _, m := range s.messages {
		if m.Channel == channel && m.TS == ts && !m.Deleted {
			return m
		}
	}
	return nil
}

// findEphemeralLocked returns the live ephemeral at ts.
func (s *Server) findEphemeralLocked(channel, ts string) *Message {
	for _, m := range s.ephemerals {
		if m.Channel == channel && m.TS == ts && !m.Deleted {
			return m
		}
	}
	return nil
}

// wire renders m as Slack returns messages (chat.postMessage "message",
// conversations.history).
func (m *Message) wire(teamID, appID string) map[string]any {
	w := map[string]any{"type": "message", "text": m.Text, "ts": m.TS, "team": teamID}
	if m.User != "" {
		w["user"] = m.User
	}
	if m.BotID != "" {
		w["bot_id"] = m.BotID
		w["app_id"] = appID
	}
	if m.ThreadTS != "" {
		w["thread_ts"] = m.ThreadTS
	}
	if len(m.Blocks) > 0 {
		w["blocks"] = m.Blocks
	}
	if m.Metadata != nil {
		w["metadata"] = m.Metadata
	}
	if m.Edits > 0 {
		w["edited"] = map[string]any{"user": m.User, "ts": m.TS}
	}
	if len(m.Files) > 0 {
		var files []map[string]any
		for i, f := range m.Files {
			files = append(files, map[string]any{"id": fmt.Sprintf("F%08d", i+1), "name": f, "title": f, "mode": "hosted"})
		}
		w["files"], w["upload"] = files, true
	}
	return w
}
