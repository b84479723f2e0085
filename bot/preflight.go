package bot

import (
	"context"
	"net/http"
	"slices"
	"strings"

	"github.com/slack-go/slack"
)

// Preflight is what `paperbot check` reports before going live.
type Preflight struct {
	Auth AuthInfo
	// Scopes are the bot token's scopes as Slack reports them; nil when
	// Slack did not say.
	Scopes []string
	// Missing are required scopes the token lacks: reinstall the app.
	Missing []string
	// SocketMode is nil when the app-level token opened a Socket Mode
	// connection URL, else why it could not.
	SocketMode error
}

// CheckTokens checks both tokens of cfg against Slack without serving
// anything: auth.test with the bot token (its scopes come back in a header)
// and apps.connections.open with the app-level token. It returns an error
// only when cfg is malformed, the bot token is refused or Slack is
// unreachable; no error includes a token.
func CheckTokens(ctx context.Context, cfg Config) (Preflight, error) {
	var p Preflight
	cfg, err := cfg.withDefaults()
	if err != nil {
		return p, err
	}
	var api SlackAPI = slack.New(cfg.BotToken, slack.OptionAPIURL(cfg.APIURL), slack.OptionAppLevelToken(cfg.AppToken),
		slack.OptionHTTPClient(&http.Client{Timeout: cfg.HTTPTimeout}))
	r, err := api.AuthTestContext(ctx)
	if err != nil {
		return p, slackAuthError("SLACK_BOT_TOKEN", "auth.test", cfg.APIURL, err)
	}
	p.Auth = authInfo(r)
	if h := r.Header.Get("X-OAuth-Scopes"); h != "" {
		for _, s := range strings.Split(h, ",") {
			if s = strings.TrimSpace(s); s != "" {
				p.Scopes = append(p.Scopes, s)
			}
		}
		for _, s := range RequiredScopes(cfg.Assistant) {
			if !slices.Contains(p.Scopes, s) {
				p.Missing = append(p.Missing, s)
			}
		}
	}
	if _, _, err := api.StartSocketModeContext(ctx); err != nil {
		p.SocketMode = socketError(err)
	}
	return p, nil
}
