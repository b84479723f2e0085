package bot

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/slack-go/slack"

	"github.com/paperbot/paperbot/fault"
)

// AuthInfo is who the bot token belongs to (auth.test).
type AuthInfo struct {
	UserID string // the bot's user ID; its own messages are ignored
	BotID  string
	User   string // the bot's user name, shown in help ("@paperbot")
	TeamID string
	Team   string
	URL    string
}

// Check calls auth.test with the bot token. Rejections (invalid_auth,
// not_authed, account_inactive, token_revoked) come back as fault.Forbidden
// (errors.Is(err, fault.Forbidden)), other failures with a hint; no error
// includes a token.
func (b *Bot) Check(ctx context.Context) (AuthInfo, error) {
	r, err := b.api.AuthTestContext(ctx)
	if err != nil {
		return AuthInfo{}, slackAuthError("SLACK_BOT_TOKEN", "auth.test", b.cfg.APIURL, err)
	}
	return authInfo(r), nil
}

func authInfo(r *slack.AuthTestResponse) AuthInfo {
	return AuthInfo{UserID: r.UserID, BotID: r.BotID, User: r.User, TeamID: r.TeamID, Team: r.Team, URL: r.URL}
}

// socketError explains why Socket Mode stopped for good.
func socketError(err error) error {
	return slackAuthError("SLACK_APP_TOKEN", "apps.connections.open", "", err)
}

// slackAuthError turns a Slack failure at start-up into one clear line.
func slackAuthError(setting, method, apiURL string, err error) error {
	var se slack.SlackErrorResponse
	if errors.As(err, &se) {
		switch se.Err {
		case "invalid_auth", "not_authed", "account_inactive", "token_revoked", "not_allowed_token_type":
			return fmt.Errorf("slack rejected the token: %w", fault.Errorf("", fault.Forbidden,
				"%s was refused by %s (%s); check it is the current token of the installed app", setting, method, se.Err))
		}
		return fmt.Errorf("slack %s failed: %s", method, se.Err)
	}
	var sc slack.StatusCodeError
	if errors.As(err, &sc) && sc.Code == http.StatusNotFound {
		return fmt.Errorf("slack %s answered 404: check SLACK_API_URL (%s) points at the Web API, ending in /api/", method, apiURL)
	}
	if errors.Is(err, context.Canceled) {
		return err
	}
	return fmt.Errorf("slack %s failed: %w", method, err)
}

// CheckAuth calls auth.test with cfg's bot token, without building a bot:
// serve runs it before it writes to the subscription store. Errors are
// those of Check.
func CheckAuth(ctx context.Context, cfg Config) (AuthInfo, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return AuthInfo{}, err
	}
	var api SlackAPI = slack.New(cfg.BotToken, slack.OptionAPIURL(cfg.APIURL),
		slack.OptionHTTPClient(&http.Client{Timeout: cfg.HTTPTimeout}),
		slack.OptionRetry(3)) // after OptionHTTPClient: wraps it
	r, err := api.AuthTestContext(ctx)
	if err != nil {
		return AuthInfo{}, slackAuthError("SLACK_BOT_TOKEN", "auth.test", cfg.APIURL, err)
	}
	return authInfo(r), nil
}
