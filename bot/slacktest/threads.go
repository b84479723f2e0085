package slacktest

import "strings"

// Say records a user's message in channel (in the thread of threadTS when
// it is not "") and pushes the events an app subscribed to
// message.channels and message.groups gets, as Slack sends them: a message
// event, and when text mentions the bot an app_mention too, both for the
// same message ts. It returns the message ts and the envelope IDs, message
// event first.
func (s *Server) Say(channel, user, text, threadTS string) (ts string, envelopeIDs []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.ensureChannelLocked(orDefault(channel, DefaultChannel))
	m, env, _ := s.postUserMessageLocked(ch.ID, ch.channelType(), orDefault(user, DefaultUser), text, threadTS)
	envelopeIDs = append(envelopeIDs, env)
	if strings.Contains(text, "<@"+s.cfg.botUserID+">") {
		env, _ := s.eventLocked(s.userMessageEvent("app_mention", m))
		envelopeIDs = append(envelopeIDs, env)
	}
	return m.TS, envelopeIDs
}

// DirectMessageInThread is DirectMessage as a reply in the DM's thread of
// threadTS.
func (s *Server) DirectMessageInThread(user, text, threadTS string) (ts, envelopeID string) {
	ts, envelopeID, _ = s.directMessage(user, text, threadTS)
	return ts, envelopeID
}
