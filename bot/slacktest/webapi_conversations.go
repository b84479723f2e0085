package slacktest

import (
	"sort"
	"strconv"
	"strings"
)

// visibleLocked returns a channel conversations.* may read: unknown or
// deleted channels are channel_not_found.
func (s *Server) visibleLocked(id string) (*Channel, *apiError) {
	ch, ok := s.channels[id]
	if !ok || ch.Deleted {
		return nil, fail("channel_not_found")
	}
	return ch, nil
}

func (s *Server) conversationsInfo(r *apiRequest) (map[string]any, *apiError) {
	ch, e := s.visibleLocked(r.params.Get("channel"))
	if e != nil {
		return nil, e
	}
	return map[string]any{"channel": ch.wire(s.now())}, nil
}

// conversationsOpen opens the IM with one user (users=U1) or returns an
// existing IM (channel=D1).
func (s *Server) conversationsOpen(r *apiRequest) (map[string]any, *apiError) {
	if id := r.params.Get("channel"); id != "" {
		ch, e := s.visibleLocked(id)
		if e != nil {
			return nil, e
		}
		return map[string]any{"no_op": true, "already_open": true, "channel": map[string]any{"id": ch.ID}}, nil
	}
	users := strings.Split(r.params.Get("users"), ",")
	switch {
	case len(users) != 1 || users[0] == "":
		return nil, fail("users_list_not_supplied")
	}
	u, ok := s.users[users[0]]
	if !ok || u.Deleted {
		return nil, fail("user_not_found")
	}
	_, existed := s.dms[u.ID]
	id := s.dmLocked(u.ID)
	return map[string]any{"no_op": existed, "already_open": existed, "channel": map[string]any{"id": id}}, nil
}

func (s *Server) conversationsJoin(r *apiRequest) (map[string]any, *apiError) {
	ch, e := s.visibleLocked(r.params.Get("channel"))
	if e != nil {
		return nil, e
	}
	switch {
	case ch.IM || ch.Private:
		return nil, fail("method_not_supported_for_channel_type")
	case ch.Archived:
		return nil, fail("is_archived")
	}
	ch.Member = true
	return map[string]any{"channel": ch.wire(s.now())}, nil
}

// conversationsHistory lists top-level messages (and thread replies broadcast
// to the channel) newest first, with Slack's
// oldest/latest/inclusive/limit/cursor arguments (cursor is an offset).
func (s *Server) conversationsHistory(r *apiRequest) (map[string]any, *apiError) {
	ch, e := s.readableLocked(r.params.Get("channel"))
	if e != nil {
		return nil, e
	}
	var list []*Message
	for _, m := range s.messages {
		topLevel := m.ThreadTS == "" || m.ThreadTS == m.TS || m.Params.Get("reply_broadcast") == "true"
		if m.Channel == ch.ID && !m.Deleted && topLevel && inRange(m.TS, r) {
			list = append(list, m)
		}
	}
	sort.SliceStable(list, func(i, j int) bool { return tsLess(list[j].TS, list[i].TS) })
	return s.page(list, r, 100)
}

// conversationsReplies lists a thread, parent first, oldest first.
func (s *Server) conversationsReplies(r *apiRequest) (map[string]any, *apiError) {
	ch, e := s.readableLocked(r.params.Get("channel"))
	if e != nil {
		return nil, e
	}
	ts := r.params.Get("ts")
	parent := s.findLocked(ch.ID, ts)
	if parent == nil {
		return nil, fail("thread_not_found")
	}
	list := []*Message{parent}
	for _, m := range s.messages {
		if m.Channel == ch.ID && m.ThreadTS == ts && m.TS != ts && !m.Deleted && inRange(m.TS, r) {
			list = append(list, m)
		}
	}
	return s.page(list, r, 1000)
}

// readableLocked is a channel whose history the bot may read.
func (s *Server) readableLocked(id string) (*Channel, *apiError) {
	ch, e := s.visibleLocked(id)
	if e != nil {
		return nil, e
	}
	if !ch.IM && !ch.Member {
		return nil, fail("not_in_channel")
	}
	return ch, nil
}

func (s *Server) page(list []*Message, r *apiRequest, defLimit int) (map[string]any, *apiError) {
	limit, _ := strconv.Atoi(r.params.Get("limit"))
	if limit <= 0 || limit > 999 {
		limit = defLimit
	}
	start, _ := strconv.Atoi(r.params.Get("cursor"))
	if start < 0 || start > len(list) {
		return nil, fail("invalid_cursor")
	}
	end := min(start+limit, len(list))
	msgs := make([]map[string]any, 0, end-start)
	for _, m := range list[start:end] {
		msgs = append(msgs, m.wire(s.cfg.teamID, s.cfg.appID))
	}
	next := ""
	if end < len(list) {
		next = strconv.Itoa(end)
	}
	return map[string]any{
		"messages": msgs, "has_more": next != "", "pin_count": 0,
		"response_metadata": map[string]any{"next_cursor": next},
	}, nil
}

// inRange applies oldest, latest and inclusive (default exclusive).
func inRange(ts string, r *apiRequest) bool {
	incl := r.params.Get("inclusive") == "1" || r.params.Get("inclusive") == "true"
	if o := r.params.Get("oldest"); o != "" && o != "0" {
		if tsLess(ts, o) || (!incl && ts == o) {
			return false
		}
	}
	if l := r.params.Get("latest"); l != "" {
		if tsLess(l, ts) || (!incl && ts == l) {
			return false
		}
	}
	return true
}

// tsLess orders Slack timestamps numerically.
func tsLess(a, b string) bool {
	fa, _ := strconv.ParseFloat(a, 64)
	fb, _ := strconv.ParseFloat(b, 64)
	if fa != fb {
		return fa < fb
	}
	return a < b
}
