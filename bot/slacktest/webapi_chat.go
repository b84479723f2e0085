package slacktest

import (
	"fmt"
	"strings"
)

// postableLocked resolves a channel the bot wants to write to: a user ID means
// the IM with that user; unknown or deleted channels are channel_not_found,
// archived ones is_archived, and channels the bot is not in not_in_channel.
func (s *Server) postableLocked(id string) (*Channel, *apiError) {
	if id == "" {
		return nil, fail("channel_not_found")
	}
	if _, isUser := s.users[id]; isUser && (strings.HasPrefix(id, "U") || strings.HasPrefix(id, "W")) {
		id = s.dmLocked(id)
	}
	ch, ok := s.channels[id]
	switch {
	case !ok || ch.Deleted:
		return nil, fail("channel_not_found")
	case ch.Archived:
		return nil, fail("is_archived")
	case !ch.IM && !ch.Member:
		return nil, fail("not_in_channel")
	}
	return ch, nil
}

func (s *Server) requestContent(r *apiRequest) (content, *apiError) {
	return parseContent(r.params.Get("text"), r.params.Get("blocks"), r.params.Get("metadata"),
		r.params.Get("attachments") != "", s.cfg.lenientText)
}

func (s *Server) chatPostMessage(r *apiRequest) (map[string]any, *apiError) {
	ch, e := s.postableLocked(r.params.Get("channel"))
	if e != nil {
		return nil, e
	}
	c, e := s.requestContent(r)
	if e != nil {
		return nil, e
	}
	m := s.botMessageLocked(ch.ID, r.params.Get("thread_ts"), c, "chat.postMessage")
	m.Params = r.params
	s.messages = append(s.messages, m)
	return map[string]any{"channel": ch.ID, "ts": m.TS, "message": m.wire(s.cfg.teamID, s.cfg.appID)}, nil
}

func (s *Server) chatPostEphemeral(r *apiRequest) (map[string]any, *apiError) {
	ch, e := s.postableLocked(r.params.Get("channel"))
	if e != nil {
		return nil, e
	}
	user := r.params.Get("user")
	if _, ok := s.users[user]; !ok {
		return nil, fail("user_not_found")
	}
	c, e := s.requestContent(r)
	if e != nil {
		return nil, e
	}
	m := s.botMessageLocked(ch.ID, r.params.Get("thread_ts"), c, "chat.postEphemeral")
	m.Ephemeral, m.Recipient, m.Params = true, user, r.params
	s.ephemerals = append(s.ephemerals, m)
	return map[string]any{"message_ts": m.TS}, nil
}

func (s *Server) chatUpdate(r *apiRequest) (map[string]any, *apiError) {
	m, e := s.ownMessageLocked(r, "ts", "cant_update_message")
	if e != nil {
		return nil, e
	}
	blocks := r.params.Get("blocks")
	if _, sent := r.params["blocks"]; !sent && len(m.Blocks) > 0 {
		blocks = string(m.Blocks) // chat.update keeps blocks it is not given
	}
	c, e := parseContent(r.params.Get("text"), blocks, r.params.Get("metadata"), r.params.Get("attachments") != "", s.cfg.lenientText)
	if e != nil {
		return nil, e
	}
	m.Text, m.Blocks, m.Edits = c.text, c.blocks, m.Edits+1
	if c.metadata != nil {
		m.Metadata = c.metadata
	}
	return map[string]any{"channel": m.Channel, "ts": m.TS, "text": m.Text, "message": m.wire(s.cfg.teamID, s.cfg.appID)}, nil
}

func (s *Server) chatDelete(r *apiRequest) (map[string]any, *apiError) {
	m, e := s.ownMessageLocked(r, "ts", "cant_delete_message")
	if e != nil {
		return nil, e
	}
	m.Deleted = true
	return map[string]any{"channel": m.Channel, "ts": m.TS}, nil
}

// ownMessageLocked finds the message chat.update or chat.delete targets and
// checks the bot may change it.
func (s *Server) ownMessageLocked(r *apiRequest, tsParam, notOwn string) (*Message, *apiError) {
	id := r.params.Get("channel")
	ch, ok := s.channels[id]
	if !ok || ch.Deleted {
		return nil, fail("channel_not_found")
	}
	if ch.Archived {
		return nil, fail("is_archived")
	}
	m := s.findLocked(id, r.params.Get(tsParam))
	if m == nil {
		return nil, fail("message_not_found")
	}
	if m.User != s.cfg.botUserID {
		return nil, fail(notOwn)
	}
	return m, nil
}

func (s *Server) chatGetPermalink(r *apiRequest) (map[string]any, *apiError) {
	id := r.params.Get("channel")
	if ch, ok := s.channels[id]; !ok || ch.Deleted {
		return nil, fail("channel_not_found")
	}
	m := s.findLocked(id, r.params.Get("message_ts"))
	if m == nil {
		return nil, fail("message_not_found")
	}
	link := fmt.Sprintf("https://%s.slack.com/archives/%s/p%s", s.cfg.teamDomain, id, strings.ReplaceAll(m.TS, ".", ""))
	if m.ThreadTS != "" && m.ThreadTS != m.TS {
		link += fmt.Sprintf("?thread_ts=%s&cid=%s", m.ThreadTS, id)
	}
	return map[string]any{"channel": id, "permalink": link}, nil
}

// botMessageLocked builds a message authored by the bot.
func (s *Server) botMessageLocked(channel, threadTS string, c content, source string) *Message {
	return &Message{
		Channel: channel, TS: s.tsLocked(), ThreadTS: threadTS,
		User: s.cfg.botUserID, BotID: s.cfg.botID,
		Text: c.text, Blocks: c.blocks, Metadata: c.metadata,
		Source: source, PostedAt: s.now(),
	}
}
