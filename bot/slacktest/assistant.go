package slacktest

import (
	"encoding/json"
	"strings"
)

// AssistantPrompt is one suggested prompt of an assistant thread.
type AssistantPrompt struct {
	Title   string `json:"title"`
	Message string `json:"message"`
}

// assistantThread is what the app set on one assistant thread.
type assistantThread struct {
	statuses []string
	title    string
	prompts  []AssistantPrompt
}

// maxAssistantPrompts is how many suggested prompts Slack takes.
const maxAssistantPrompts = 4

// AssistantThreadStarted opens an assistant thread for user, as Slack does
// when they open the app's assistant container: a thread in their DM with
// the app, and the assistant_thread_started event. It returns the DM
// channel, the thread's ts and the envelope ID. Messages in it are sent
// with DirectMessageInThread.
func (s *Server) AssistantThreadStarted(user string) (channel, threadTS, envelopeID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	user = orDefault(user, DefaultUser)
	s.ensureUserLocked(user)
	dm := s.dmLocked(user)
	root := &Message{Channel: dm, TS: s.tsLocked(), User: s.cfg.botUserID, BotID: s.cfg.botID, Source: "assistant", PostedAt: s.now()}
	s.messages = append(s.messages, root)
	if s.assistant == nil {
		s.assistant = map[string]*assistantThread{}
	}
	s.assistant[dm+"/"+root.TS] = &assistantThread{}
	ev := map[string]any{"type": "assistant_thread_started", "event_ts": s.tsLocked(),
		"assistant_thread": map[string]any{"user_id": user, "channel_id": dm, "thread_ts": root.TS,
			"context": map[string]any{"channel_id": "", "team_id": s.cfg.teamID, "enterprise_id": ""}}}
	envelopeID, _ = s.eventLocked(ev)
	return dm, root.TS, envelopeID
}

// AssistantStatuses returns the statuses the app set on an assistant
// thread, in order ("" clears).
func (s *Server) AssistantStatuses(channel, threadTS string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.assistant[channel+"/"+threadTS]; t != nil {
		return append([]string(nil), t.statuses...)
	}
	return nil
}

// SuggestedPrompts returns the prompts last set on an assistant thread.
func (s *Server) SuggestedPrompts(channel, threadTS string) []AssistantPrompt {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.assistant[channel+"/"+threadTS]; t != nil {
		return append([]AssistantPrompt(nil), t.prompts...)
	}
	return nil
}

// assistantThreadLocked finds the assistant thread a method names.
func (s *Server) assistantThreadLocked(r *apiRequest) (*assistantThread, *apiError) {
	ch, ts := r.params.Get("channel_id"), r.params.Get("thread_ts")
	if ch == "" || ts == "" {
		return nil, fail("invalid_arguments")
	}
	if _, ok := s.channels[ch]; !ok {
		return nil, fail("channel_not_found")
	}
	t := s.assistant[ch+"/"+ts]
	if t == nil {
		return nil, fail("invalid_thread_ts") // not an assistant thread
	}
	return t, nil
}

func (s *Server) assistantSetStatus(r *apiRequest) (map[string]any, *apiError) {
	t, e := s.assistantThreadLocked(r)
	if e != nil {
		return nil, e
	}
	if _, ok := r.params["status"]; !ok {
		return nil, fail("invalid_arguments")
	}
	t.statuses = append(t.statuses, r.params.Get("status"))
	return map[string]any{}, nil
}

func (s *Server) assistantSetSuggestedPrompts(r *apiRequest) (map[string]any, *apiError) {
	t, e := s.assistantThreadLocked(r)
	if e != nil {
		return nil, e
	}
	var prompts []AssistantPrompt
	if json.Unmarshal([]byte(r.params.Get("prompts")), &prompts) != nil || len(prompts) == 0 || len(prompts) > maxAssistantPrompts {
		return nil, fail("invalid_arguments")
	}
	for _, p := range prompts {
		if strings.TrimSpace(p.Title) == "" || strings.TrimSpace(p.Message) == "" {
			return nil, fail("invalid_arguments")
		}
	}
	t.title, t.prompts = r.params.Get("title"), prompts
	return map[string]any{}, nil
}
