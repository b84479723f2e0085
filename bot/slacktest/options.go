package slacktest

import "time"

// Default identities. The tokens are deliberately not shaped like real ones.
const (
	DefaultBotToken   = "xoxb-test-paperbot-bot-token"
	DefaultAppToken   = "xapp-test-paperbot-app-token"
	DefaultBotUserID  = "UBOTPAPER1"
	DefaultBotID      = "BBOTPAPER1"
	DefaultAppID      = "APAPERTEST"
	DefaultTeamID     = "TPAPERTEST"
	DefaultTeamDomain = "paperbot-test"
	DefaultUser       = "UTESTUSER1" // user of driver calls that name none
	DefaultChannel    = "CGENERAL01" // channel of driver calls that name none
	DefaultTZ         = "UTC"        // time zone of users registered implicitly
)

// config holds what Options set; NewServer fills defaults.
type config struct {
	botToken, appToken      string
	botUserID, botID, appID string
	teamID, teamDomain      string
	now                     func() time.Time
	pingInterval            time.Duration
	redeliverAfter          time.Duration
	redeliverMax            int
	spread                  bool
	lenientText             bool
	responseURLUses         int
	responseURLTTL          time.Duration
	scopes                  []string
	unfurlDomains           []string
}

// Option configures a Server.
type Option func(*config)

// WithBotToken sets the xoxb- token the Web API accepts.
func WithBotToken(t string) Option { return func(c *config) { c.botToken = t } }

// WithAppToken sets the xapp- token apps.connections.open accepts.
func WithAppToken(t string) Option { return func(c *config) { c.appToken = t } }

// WithBotUserID sets the bot's user ID (auth.test user_id, mentions).
func WithBotUserID(id string) Option { return func(c *config) { c.botUserID = id } }

// WithTeamID sets the workspace ID.
func WithTeamID(id string) Option { return func(c *config) { c.teamID = id } }

// WithClock sets the clock for message ts, event_time and response_url
// expiry. Ack latency is always measured with the real clock.
func WithClock(now func() time.Time) Option { return func(c *config) { c.now = now } }

// WithPingInterval sets how often the server pings each socket (default 5 s;
// slack-go gives up on a socket after 30 s without a ping).
func WithPingInterval(d time.Duration) Option { return func(c *config) { c.pingInterval = d } }

// WithRedelivery makes the server resend Events API envelopes not acked within
// after, up to max times, like Slack: a new envelope ID, retry_attempt
// incremented, retry_reason "timeout", the same event_id. Slash commands and
// interactions are never retried, as in Slack. Off by default.
func WithRedelivery(after time.Duration, max int) Option {
	return func(c *config) { c.redeliverAfter, c.redeliverMax = after, max }
}

// WithLenientText accepts blocks without a top-level text fallback, as Slack
// does (with a warning). By default such messages are refused with no_text.
func WithLenientText() Option { return func(c *config) { c.lenientText = true } }

// WithResponseURLLimits changes how many times and how long a response_url
// may be used (Slack: 5 uses within 30 minutes).
func WithResponseURLLimits(uses int, ttl time.Duration) Option {
	return func(c *config) { c.responseURLUses, c.responseURLTTL = uses, ttl }
}

func defaultConfig() config {
	return config{
		botToken: DefaultBotToken, appToken: DefaultAppToken,
		botUserID: DefaultBotUserID, botID: DefaultBotID, appID: DefaultAppID,
		teamID: DefaultTeamID, teamDomain: DefaultTeamDomain,
		now:             time.Now,
		pingInterval:    5 * time.Second,
		responseURLUses: 5,
		responseURLTTL:  30 * time.Minute,
	}
}

// WithScopes sets the bot token's scopes, which Slack reports in the
// X-OAuth-Scopes header of every bot-token call. Without it the header is
// left out.
func WithScopes(scopes ...string) Option {
	return func(c *config) { c.scopes = append([]string(nil), scopes...) }
}
