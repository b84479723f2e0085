package slacktest

import (
	"slices"
	"strconv"
	"strings"
)

// conversationsList lists the channels the bot can see, as Slack does:
// public channels, and private ones the bot is a member of (types filters
// public_channel and private_channel), in pages of limit (default 100)
// with an opaque cursor.
func (s *Server) conversationsList(r *apiRequest) (map[string]any, *apiError) {
	types := r.params.Get("types")
	if types == "" {
		types = "public_channel"
	}
	wantPublic, wantPrivate := strings.Contains(types, "public_channel"), strings.Contains(types, "private_channel")
	var ids []string
	for id, ch := range s.channels {
		if ch.Deleted || ch.IM || (ch.Archived && r.params.Get("exclude_archived") == "true") {
			continue
		}
		if (!ch.Private && wantPublic) || (ch.Private && wantPrivate && ch.Member) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	limit, err := strconv.Atoi(r.params.Get("limit"))
	if err != nil || limit <= 0 {
		limit = 100
	}
	start, _ := strconv.Atoi(r.params.Get("cursor"))
	start = min(max(start, 0), len(ids))
	end := min(start+limit, len(ids))
	chans := make([]map[string]any, 0, end-start)
	for _, id := range ids[start:end] {
		chans = append(chans, s.channels[id].wire(s.now()))
	}
	next := ""
	if end < len(ids) {
		next = strconv.Itoa(end)
	}
	return map[string]any{"channels": chans, "response_metadata": map[string]any{"next_cursor": next}}, nil
}
