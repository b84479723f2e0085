package slacktest

import (
	"encoding/json"
	"net/url"
	"regexp"
	"strings"

	"github.com/paperbot/paperbot/bot/blockkit"
)

// WithUnfurlDomains sets the app's unfurl domains (the manifest's
// features.unfurl_domains): only links to them, or to their subdomains,
// raise link_shared.
func WithUnfurlDomains(domains ...string) Option {
	return func(c *config) { c.unfurlDomains = append([]string(nil), domains...) }
}

// linkPattern finds links in message text as Slack formats them: <url> and
// <url|label>, and bare http(s) URLs.
var linkPattern = regexp.MustCompile(`<(https?://[^|>\s]+)(?:\|[^>]*)?>|https?://[^\s<>|]+`)

// PasteLinks records a user's message with links in channel (in the
// thread of threadTS when not "") and pushes what an app subscribed to
// channel messages gets: the message event, then — when some links are on
// the app's unfurl domains — link_shared listing those links. It returns
// the message ts and the envelope IDs in that order.
func (s *Server) PasteLinks(channel, user, text, threadTS string) (ts string, envelopeIDs []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.ensureChannelLocked(orDefault(channel, DefaultChannel))
	m, env, _ := s.postUserMessageLocked(ch.ID, ch.channelType(), orDefault(user, DefaultUser), text, threadTS)
	envelopeIDs = append(envelopeIDs, env)
	var links []map[string]any
	seen := map[string]bool{}
	for _, sm := range linkPattern.FindAllStringSubmatch(text, -1) {
		link := sm[1]
		if link == "" {
			link = sm[0]
		}
		if d := s.unfurlDomainLocked(link); d != "" && !seen[link] {
			seen[link] = true
			links = append(links, map[string]any{"domain": d, "url": link})
		}
	}
	if len(links) > 0 {
		share := map[string]any{"type": "link_shared", "channel": ch.ID, "user": m.User, "message_ts": m.TS,
			"links": links, "source": "conversations_history", "unfurl_id": "C-" + randomHex(8), "event_ts": s.tsLocked()}
		if threadTS != "" {
			share["thread_ts"] = threadTS
		}
		env, _ := s.eventLocked(share)
		envelopeIDs = append(envelopeIDs, env)
	}
	return m.TS, envelopeIDs
}

// unfurlDomainLocked is the registered domain link is on, or "".
func (s *Server) unfurlDomainLocked(link string) string {
	u, err := url.Parse(link)
	if err != nil {
		return ""
	}
	host := strings.ToLower(u.Hostname())
	for _, d := range s.cfg.unfurlDomains {
		if host == d || strings.HasSuffix(host, "."+d) {
			return host
		}
	}
	return ""
}

// chatUnfurl attaches the app's previews to a message's links, checked as
// Slack does: the message must exist, unfurls must be a JSON object keyed by
// URLs of that message (cannot_unfurl_url otherwise), each attachment's
// blocks within Block Kit's limits (invalid_blocks).
func (s *Server) chatUnfurl(r *apiRequest) (map[string]any, *apiError) {
	id := r.params.Get("channel")
	if ch, ok := s.channels[id]; !ok || ch.Deleted {
		return nil, fail("channel_not_found")
	}
	m := s.findLocked(id, r.params.Get("ts"))
	if m == nil {
		return nil, fail("cannot_unfurl_message")
	}
	raw := r.params.Get("unfurls")
	if strings.TrimSpace(raw) == "" {
		return nil, fail("missing_unfurls")
	}
	var unfurls map[string]json.RawMessage
	if json.Unmarshal([]byte(raw), &unfurls) != nil || len(unfurls) == 0 {
		return nil, fail("invalid_unfurls_format")
	}
	for link, att := range unfurls {
		if !strings.Contains(m.Text, link) {
			return nil, fail("cannot_unfurl_url")
		}
		var a struct {
			Blocks json.RawMessage `json:"blocks"`
		}
		if json.Unmarshal(att, &a) != nil {
			return nil, fail("invalid_unfurls_format")
		}
		if len(a.Blocks) > 0 {
			if err := blockkit.ValidateJSON(a.Blocks); err != nil {
				return nil, invalidBlocks("invalid_blocks", "", err)
			}
		}
	}
	if m.Unfurls == nil {
		m.Unfurls = map[string]json.RawMessage{}
	}
	for link, att := range unfurls {
		m.Unfurls[link] = att
	}
	return map[string]any{}, nil
}
