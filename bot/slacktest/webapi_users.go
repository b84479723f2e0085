package slacktest

import "fmt"

func (s *Server) authTest(*apiRequest) (map[string]any, *apiError) {
	return map[string]any{
		"url":  fmt.Sprintf("https://%s.slack.com/", s.cfg.teamDomain),
		"team": "Paperbot Test", "user": "paperbot",
		"team_id": s.cfg.teamID, "user_id": s.cfg.botUserID, "bot_id": s.cfg.botID,
		"is_enterprise_install": false,
	}, nil
}

func (s *Server) usersInfo(r *apiRequest) (map[string]any, *apiError) {
	u, ok := s.users[r.params.Get("user")]
	if !ok {
		return nil, fail("user_not_found")
	}
	return map[string]any{"user": u.wire(s.cfg.teamID, s.now())}, nil
}
