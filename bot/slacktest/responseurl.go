package slacktest

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"
)

// responseURL is the state behind one response_url.
type responseURL struct {
	token         string
	channel, user string
	threadTS      string   // thread of the original, for in_channel replies
	origin        *Message // the message a block action came from; nil for slash commands
	last          *Message // last message posted through this URL
	uses          int
	created       time.Time
}

// ResponseURLPost is one POST to a response_url, as received.
type ResponseURLPost struct {
	URL             string
	Channel, User   string // where the URL was issued
	Text            string
	Blocks          json.RawMessage
	ResponseType    string // "ephemeral" (default) or "in_channel"
	ReplaceOriginal bool
	DeleteOriginal  bool
	ThreadTS        string
	Status          int    // HTTP status answered
	Error           string // "" when accepted
	At              time.Time
}

// responseBody is the JSON Slack accepts at a response_url (slack-go sends a Msg).
type responseBody struct {
	Text            string          `json:"text"`
	Blocks          json.RawMessage `json:"blocks"`
	Attachments     json.RawMessage `json:"attachments"`
	Metadata        json.RawMessage `json:"metadata"`
	ResponseType    string          `json:"response_type"`
	ReplaceOriginal bool            `json:"replace_original"`
	DeleteOriginal  bool            `json:"delete_original"`
	ThreadTS        string          `json:"thread_ts"`
}

// newResponseURLLocked issues a response_url for a command or an action.
func (s *Server) newResponseURLLocked(channel, user string, origin *Message) string {
	ru := &responseURL{token: randomHex(16), channel: channel, user: user, origin: origin, created: s.now()}
	if origin != nil {
		ru.threadTS = origin.ThreadTS
	}
	s.responseURLs[ru.token] = ru
	return s.http.URL + "/response/" + ru.token
}

// serveResponseURL answers like Slack: 200 {"ok":true} when accepted, 200
// {"ok":false,"error":...} for a bad message (no_text, invalid_blocks, ...),
// and 404 with used_url / expired_url / invalid_url when the URL cannot be used.
func (s *Server) serveResponseURL(w http.ResponseWriter, r *http.Request) {
	token := strings.TrimPrefix(r.URL.Path, "/response/")
	body, _ := io.ReadAll(io.LimitReader(r.Body, 8<<20))
	s.mu.Lock()
	defer s.mu.Unlock()
	post := ResponseURLPost{URL: s.http.URL + r.URL.Path, At: time.Now(), Status: http.StatusOK}
	var e *apiError
	ru := s.responseURLs[token]
	switch {
	case r.Method != http.MethodPost:
		post.Status, e = http.StatusMethodNotAllowed, fail("invalid_method")
	case ru == nil:
		post.Status, e = http.StatusNotFound, fail("invalid_url")
	case s.now().Sub(ru.created) > s.cfg.responseURLTTL:
		post.Status, e = http.StatusNotFound, fail("expired_url")
	case ru.uses >= s.cfg.responseURLUses:
		post.Status, e = http.StatusNotFound, fail("used_url")
	default:
		post.Channel, post.User = ru.channel, ru.user
		var b responseBody
		if json.Unmarshal(body, &b) != nil {
			e = fail("invalid_payload")
			break
		}
		post.Text, post.ResponseType, post.ThreadTS = b.Text, b.ResponseType, b.ThreadTS
		post.ReplaceOriginal, post.DeleteOriginal = b.ReplaceOriginal, b.DeleteOriginal
		if blocks := rawJSONString(b.Blocks); blocks != "null" {
			post.Blocks = b.Blocks
		}
		if e = s.respondLocked(ru, body, "response_url"); e == nil {
			ru.uses++
		}
	}
	if e != nil {
		post.Error = e.code
	}
	s.responses = append(s.responses, post)
	s.notifyLocked()
	if e != nil {
		writeJSON(w, post.Status, errorBody(e))
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ok": true})
}

// respondLocked applies a response_url (or slash-command ack) body: delete or
// replace the original, or post a new ephemeral / in_channel message.
func (s *Server) respondLocked(ru *responseURL, raw json.RawMessage, source string) *apiError {
	var b responseBody
	if err := json.Unmarshal(raw, &b); err != nil {
		return fail("invalid_payload")
	}
	target := ru.origin
	if target == nil || target.Deleted {
		target = ru.last
	}
	if source == "ack" {
		target = nil // an ack never replaces anything
	}
	if b.DeleteOriginal {
		if target != nil {
			target.Deleted = true
		}
		return nil
	}
	c, e := parseContent(b.Text, rawJSONString(b.Blocks), responseMetadata(b.Metadata), rawJSONString(b.Attachments) != "" && string(b.Attachments) != "null", s.cfg.lenientText)
	if e != nil {
		return e
	}
	if b.ReplaceOriginal && target != nil && !target.Deleted {
		target.Text, target.Blocks, target.Edits = c.text, c.blocks, target.Edits+1
		if c.metadata != nil {
			target.Metadata = c.metadata
		}
		return nil
	}
	threadTS := b.ThreadTS
	if threadTS == "" {
		threadTS = ru.threadTS
	}
	m := s.botMessageLocked(ru.channel, threadTS, c, source)
	if b.ResponseType == "in_channel" {
		s.messages = append(s.messages, m)
	} else {
		m.Ephemeral, m.Recipient = true, ru.user
		s.ephemerals = append(s.ephemerals, m)
	}
	ru.last = m
	return nil
}

// responseMetadata drops the empty metadata object slack-go always sends.
func responseMetadata(raw json.RawMessage) string {
	var md Metadata
	if json.Unmarshal(raw, &md) != nil || md.EventType == "" {
		return ""
	}
	return string(raw)
}

// ResponseURLPosts returns every POST received at a response_url, oldest first.
func (s *Server) ResponseURLPosts() []ResponseURLPost {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]ResponseURLPost(nil), s.responses...)
}
