package slacktest

import (
	"encoding/json"
	"strings"

	"github.com/paperbot/paperbot/bot/blockkit"
)

// viewsPublish publishes a Home tab. Like Slack it answers invalid_arguments
// (with the list of problems) for a bad view and hash_conflict when hash is
// stale.
func (s *Server) viewsPublish(r *apiRequest) (map[string]any, *apiError) {
	user := r.params.Get("user_id")
	if _, ok := s.users[user]; !ok {
		return nil, fail("user_not_found")
	}
	raw := json.RawMessage(r.params.Get("view"))
	if b, ok := r.body["view"]; ok {
		raw = b
	}
	var view struct {
		Type   string          `json:"type"`
		Blocks json.RawMessage `json:"blocks"`
	}
	if json.Unmarshal(raw, &view) != nil {
		return nil, fail("invalid_arguments")
	}
	if view.Type != "home" {
		return nil, invalidArgs("[ERROR] view type must be home [json-pointer:/view/type]")
	}
	if len(view.Blocks) == 0 || strings.TrimSpace(string(view.Blocks)) == "null" {
		return nil, invalidArgs("[ERROR] missing required field: blocks [json-pointer:/view/blocks]")
	}
	if err := blockkit.ValidateViewJSON(view.Blocks); err != nil {
		return nil, invalidBlocks("invalid_arguments", "/view", err)
	}
	views := s.homeViews[user]
	if h := r.params.Get("hash"); h != "" && len(views) > 0 && views[len(views)-1].Hash != h {
		return nil, fail("hash_conflict")
	}
	hv := HomeView{ID: s.idLocked("V"), User: user, Hash: s.triggerIDLocked(), View: raw, Blocks: view.Blocks, At: s.now()}
	if len(views) > 0 {
		hv.ID = views[0].ID // a user's Home tab keeps its view ID
	}
	s.homeViews[user] = append(views, hv)
	return map[string]any{"view": map[string]any{
		"id": hv.ID, "team_id": s.cfg.teamID, "type": "home", "blocks": view.Blocks,
		"hash": hv.Hash, "app_id": s.cfg.appID, "bot_id": s.cfg.botID,
	}}, nil
}

func invalidArgs(msg string) *apiError {
	return &apiError{code: "invalid_arguments", extra: map[string]any{
		"response_metadata": map[string]any{"messages": []string{msg}},
	}}
}
