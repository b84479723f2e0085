package bot

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/slack-go/slack"
)

// Config configures a Bot. Zero values take the documented defaults.
type Config struct {
	// BotToken is the Bot User OAuth Token (xoxb-…); AppToken the app-level
	// token with connections:write (xapp-…). Both are required.
	BotToken string
	AppToken string
	// APIURL is the Web API base URL; default Slack's own. A missing trailing
	// slash is added (slack-go needs it).
	APIURL string
	// Workers handle requests concurrently (default 8, DefaultWorkers; the
	// command line allows at most MaxWorkers); QueueSize requests
	// may wait for a worker (default 256) before reading envelopes slows down.
	Workers   int
	QueueSize int
	// AckTimeout bounds each envelope acknowledgement (default 1s).
	AckTimeout time.Duration
	// ShutdownGrace bounds how long Run waits for in-flight work after its
	// context ends (default 10s).
	ShutdownGrace time.Duration
	// HTTPTimeout bounds each Web API and response_url request (default 10s).
	HTTPTimeout time.Duration
	// RequestTimeout bounds the handling of one request, rate-limit waits
	// included (default 60s).
	RequestTimeout time.Duration
	// PageSize is the number of results per page (default 5, at most 10).
	PageSize int
	// SlashCommand is the command name shown in help and App Home (default "/paper").
	SlashCommand string
	// DedupTTL is how long handled event and envelope IDs are remembered
	// (default and minimum 10m); DedupMax bounds how many (default 100000).
	DedupTTL time.Duration
	DedupMax int
	// SharedWait bounds how long a delivery waits for the shared
	// de-duplicator (WithSharedDedup) while its database fails, retrying
	// with backoff, before it is dropped unanswered (default 2m).
	SharedWait time.Duration
	// ClickWindow is how long identical clicks on the same button by the same
	// user act only once (default 3s).
	ClickWindow time.Duration
	// Assistant answers on Slack's assistant surface (Agents & AI Apps, a
	// paid plan; the app needs deploy/slack/manifest.assistant.yaml):
	// suggested prompts when a user opens an assistant thread, a status
	// while searching. Off by default.
	Assistant bool
	// PingInterval is how long the socket may go without a ping from Slack
	// before it reconnects (default: slack-go's 30s).
	PingInterval time.Duration
}

// Defaults and bounds of Config that the command line shows and checks.
const (
	DefaultAPIURL        = slack.APIURL
	DefaultWorkers       = 8
	MaxWorkers           = 256
	DefaultShutdownGrace = 10 * time.Second
)

// ErrAPIURL is a Web API base URL that is not an http(s) URL.
var ErrAPIURL = errors.New("SLACK_API_URL must be an http(s) URL such as https://slack.com/api/")

// NormalizeAPIURL returns the Web API base URL to use for s: Slack's own
// when s is empty, with the trailing slash slack-go needs (without it every
// call 404s and looks like bad auth). The error is ErrAPIURL.
func NormalizeAPIURL(s string) (string, error) {
	if s == "" {
		return DefaultAPIURL, nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return s, ErrAPIURL
	}
	if !strings.HasSuffix(s, "/") {
		s += "/"
	}
	return s, nil
}

// Token shape errors. They never include the token.
var (
	ErrBotToken = errors.New("SLACK_BOT_TOKEN must be a bot token starting with xoxb-")
	ErrAppToken = errors.New("SLACK_APP_TOKEN must be an app-level token starting with xapp-")
)

// withDefaults validates c and fills in defaults. Errors name the setting
// and never echo a token.
func (c Config) withDefaults() (Config, error) {
	c.BotToken = strings.TrimSpace(c.BotToken)
	c.AppToken = strings.TrimSpace(c.AppToken)
	switch {
	case c.BotToken == "":
		return c, fmt.Errorf("SLACK_BOT_TOKEN is not set: %w", ErrBotToken)
	case !validToken(c.BotToken, "xoxb-"):
		return c, fmt.Errorf("SLACK_BOT_TOKEN is malformed (%s): %w", tokenHint(c.BotToken, "xoxb-"), ErrBotToken)
	case c.AppToken == "":
		return c, fmt.Errorf("SLACK_APP_TOKEN is not set: %w", ErrAppToken)
	case !validToken(c.AppToken, "xapp-"):
		return c, fmt.Errorf("SLACK_APP_TOKEN is malformed (%s): %w", tokenHint(c.AppToken, "xapp-"), ErrAppToken)
	}
	var err error
	if c.APIURL, err = NormalizeAPIURL(c.APIURL); err != nil {
		return c, err
	}
	if c.Workers <= 0 {
		c.Workers = DefaultWorkers
	}
	if c.QueueSize <= 0 {
		c.QueueSize = 256
	}
	c.AckTimeout = orDefault(c.AckTimeout, time.Second)
	c.ShutdownGrace = orDefault(c.ShutdownGrace, DefaultShutdownGrace)
	c.HTTPTimeout = orDefault(c.HTTPTimeout, 10*time.Second)
	c.RequestTimeout = orDefault(c.RequestTimeout, time.Minute)
	c.ClickWindow = orDefault(c.ClickWindow, 3*time.Second)
	c.SharedWait = orDefault(c.SharedWait, 2*time.Minute)
	c.DedupTTL = max(c.DedupTTL, 10*time.Minute)
	if c.DedupMax <= 0 {
		c.DedupMax = 100_000
	}
	if c.PageSize <= 0 {
		c.PageSize = 5
	}
	c.PageSize = min(c.PageSize, maxPageSize)
	if c.SlashCommand == "" {
		c.SlashCommand = DefaultSlashCommand
	}
	if !strings.HasPrefix(c.SlashCommand, "/") || strings.ContainsAny(c.SlashCommand, " \t\n") {
		return c, fmt.Errorf("slash command %q must be one word starting with /", c.SlashCommand)
	}
	return c, nil
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// validToken checks a token's shape: the prefix, then at least 10 more
// characters from the set Slack uses.
func validToken(tok, prefix string) bool {
	rest, ok := strings.CutPrefix(tok, prefix)
	if !ok || len(rest) < 10 {
		return false
	}
	for _, r := range rest {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// tokenHint describes a malformed token without revealing it.
func tokenHint(tok, want string) string {
	switch {
	case strings.HasPrefix(tok, want):
		return "it has unexpected characters or is too short"
	case strings.HasPrefix(tok, "xoxb-"):
		return "it looks like a bot token (xoxb-)"
	case strings.HasPrefix(tok, "xapp-"):
		return "it looks like an app-level token (xapp-)"
	case strings.HasPrefix(tok, "xoxp-"):
		return "it looks like a user token (xoxp-)"
	case strings.HasPrefix(tok, "xox"):
		return "it looks like another kind of Slack token"
	}
	return "it does not look like a Slack token"
}
