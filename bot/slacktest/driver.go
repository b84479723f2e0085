package slacktest

import (
	"encoding/json"
	"fmt"
	"strings"
)

// CommandOpts is a slash command as a user types it. Zero fields take
// defaults: Command "/paper", UserID DefaultUser, ChannelID DefaultChannel.
type CommandOpts struct {
	Command     string
	Text        string
	UserID      string
	UserName    string // defaults to the user's Name
	ChannelID   string
	ChannelName string // defaults to the channel's Name
}

// SlashCommand pushes a slash_commands envelope with Slack's payload,
// including a response_url served by this server and a trigger_id, and
// returns the envelope ID. Unknown users and channels are registered (a
// channel as public with the bot in it). The ack's payload, if any, is shown
// to the user like Slack does (recorded with Source "ack").
func (s *Server) SlashCommand(cmd CommandOpts) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cmd.Command == "" {
		cmd.Command = "/paper"
	}
	u := s.ensureUserLocked(orDefault(cmd.UserID, DefaultUser))
	ch := s.ensureChannelLocked(orDefault(cmd.ChannelID, DefaultChannel))
	respURL := s.newResponseURLLocked(ch.ID, u.ID, nil)
	payload, _ := json.Marshal(map[string]any{
		"token": VerificationToken, "team_id": s.cfg.teamID, "team_domain": s.cfg.teamDomain,
		"channel_id": ch.ID, "channel_name": orDefault(cmd.ChannelName, ch.Name),
		"user_id": u.ID, "user_name": orDefault(cmd.UserName, u.Name),
		"command": cmd.Command, "text": cmd.Text, "api_app_id": s.cfg.appID,
		"is_enterprise_install": "false", // Slack sends a string here
		"response_url":          respURL, "trigger_id": s.triggerIDLocked(),
	})
	token := respURL[strings.LastIndex(respURL, "/")+1:]
	return s.pushLocked(&envelope{
		id: envelopeID(), typ: TypeSlashCommands, payload: payload,
		acceptsResponse: true, responseURL: token,
	})
}

// Mention records a user's message mentioning the bot in channel and pushes
// the app_mention event. "<@BOT>" is prepended to text unless it is there.
func (s *Server) Mention(channel, user, text string) (envelopeID, eventID string) {
	return s.MentionInThread(channel, user, text, "")
}

// MentionInThread is Mention inside the thread of threadTS.
func (s *Server) MentionInThread(channel, user, text, threadTS string) (envelopeID, eventID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	mention := "<@" + s.cfg.botUserID + ">"
	if !strings.Contains(text, mention) {
		text = mention + " " + text
	}
	ch := s.ensureChannelLocked(orDefault(channel, DefaultChannel))
	m := s.userMessageLocked(ch.ID, orDefault(user, DefaultUser), text, threadTS)
	return s.eventLocked(s.userMessageEvent("app_mention", m))
}

// DirectMessage records a user's message in their IM with the bot and pushes
// the message event (channel_type "im").
func (s *Server) DirectMessage(user, text string) (envelopeID, eventID string) {
	_, envelopeID, eventID = s.directMessage(user, text, "")
	return envelopeID, eventID
}

// directMessage is DirectMessage in the thread of threadTS when it is not "".
func (s *Server) directMessage(user, text, threadTS string) (ts, envelopeID, eventID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	user = orDefault(user, DefaultUser)
	s.ensureUserLocked(user)
	m, envelopeID, eventID := s.postUserMessageLocked(s.dmLocked(user), "im", user, text, threadTS)
	return m.TS, envelopeID, eventID
}

// BotMessage pushes a message event written by a bot in channel (an IM ID
// or a channel ID). botID "" means this app's own bot, as when the app sees
// its own post; otherwise the event has subtype bot_message. Apps must ignore
// both to avoid loops.
func (s *Server) BotMessage(channel, botID, text string) (envelopeID, eventID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.ensureChannelLocked(orDefault(channel, DefaultChannel))
	m := &Message{Channel: ch.ID, TS: s.tsLocked(), Text: text, Source: "user", PostedAt: s.now()}
	ev := map[string]any{"type": "message", "channel": ch.ID, "channel_type": ch.channelType(), "text": text, "ts": m.TS, "event_ts": m.TS}
	if botID == "" || botID == s.cfg.botID {
		m.User, m.BotID = s.cfg.botUserID, s.cfg.botID
		ev["user"], ev["bot_id"], ev["app_id"] = m.User, m.BotID, s.cfg.appID
		ev["bot_profile"] = map[string]any{"id": s.cfg.botID, "app_id": s.cfg.appID, "name": "paperbot", "team_id": s.cfg.teamID}
	} else {
		m.BotID = botID
		ev["subtype"], ev["bot_id"], ev["username"] = "bot_message", botID, "other-bot"
	}
	s.messages = append(s.messages, m)
	return s.eventLocked(ev)
}

// EditMessage changes the text of a user's message and pushes Slack's
// message_changed event for it.
func (s *Server) EditMessage(channel, ts, newText string) (envelopeID, eventID string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.findLocked(channel, ts)
	if m == nil {
		return "", "", fmt.Errorf("slacktest: EditMessage: no message %s in %s", ts, channel)
	}
	prev := map[string]any{"type": "message", "user": m.User, "text": m.Text, "ts": m.TS}
	m.Text, m.Edits = newText, m.Edits+1
	editTS := s.tsLocked()
	ch := s.channels[channel]
	ev := map[string]any{
		"type": "message", "subtype": "message_changed", "hidden": true,
		"channel": channel, "channel_type": ch.channelType(), "ts": editTS, "event_ts": editTS,
		"message": map[string]any{
			"type": "message", "user": m.User, "text": newText, "ts": m.TS,
			"edited": map[string]any{"user": m.User, "ts": editTS},
		},
		"previous_message": prev,
	}
	envelopeID, eventID = s.eventLocked(ev)
	return envelopeID, eventID, nil
}

// AppHomeOpened pushes app_home_opened for user's Home tab, with the view
// last published for them, if any.
func (s *Server) AppHomeOpened(user string) (envelopeID, eventID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	user = orDefault(user, DefaultUser)
	s.ensureUserLocked(user)
	ts := s.tsLocked()
	ev := map[string]any{"type": "app_home_opened", "user": user, "channel": s.dmLocked(user), "tab": "home", "event_ts": ts}
	if views := s.homeViews[user]; len(views) > 0 {
		ev["view"] = views[len(views)-1].View
	}
	return s.eventLocked(ev)
}

// userMessageLocked records a message written by a (simulated) human.
func (s *Server) userMessageLocked(channel, user, text, threadTS string) *Message {
	s.ensureUserLocked(user)
	m := &Message{
		Channel: channel, TS: s.tsLocked(), ThreadTS: threadTS, User: user,
		Text: text, Blocks: richText(text), Source: "user", PostedAt: s.now(),
	}
	s.messages = append(s.messages, m)
	return m
}

// postUserMessageLocked records a user's message and pushes its message
// event, as channels of channelType get it.
func (s *Server) postUserMessageLocked(channel, channelType, user, text, threadTS string) (m *Message, envelopeID, eventID string) {
	m = s.userMessageLocked(channel, user, text, threadTS)
	ev := s.userMessageEvent("message", m)
	ev["channel_type"] = channelType
	envelopeID, eventID = s.eventLocked(ev)
	return m, envelopeID, eventID
}

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}
