package slacktest

import "fmt"

// React records user's reaction name (without colons, "+1") on the message
// at ts in channel and pushes reaction_added, as Slack does for apps with
// reactions:read. Reacting twice with the same name is a no-op, as in Slack.
func (s *Server) React(channel, ts, user, name string) (envelopeID string, err error) {
	return s.reaction(channel, ts, user, name, true)
}

// Unreact takes the reaction back and pushes reaction_removed.
func (s *Server) Unreact(channel, ts, user, name string) (envelopeID string, err error) {
	return s.reaction(channel, ts, user, name, false)
}

func (s *Server) reaction(channel, ts, user, name string, add bool) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.findLocked(channel, ts)
	if m == nil || m.Deleted {
		return "", fmt.Errorf("slacktest: reaction: no message %s in %s", ts, channel)
	}
	user = orDefault(user, DefaultUser)
	s.ensureUserLocked(user)
	key := user + " " + name
	if m.reactions == nil {
		m.reactions = map[string]bool{}
	}
	if m.reactions[key] == add {
		return "", nil
	}
	m.reactions[key] = add
	typ := "reaction_removed"
	if add {
		typ = "reaction_added"
	}
	ev := map[string]any{"type": typ, "user": user, "reaction": name, "item_user": m.User,
		"item": map[string]any{"type": "message", "channel": channel, "ts": ts}, "event_ts": s.tsLocked()}
	env, _ := s.eventLocked(ev)
	return env, nil
}
