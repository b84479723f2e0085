package bot

import (
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"
)

// What a feature added with WithCommands, WithActions and WithHomeBlocks
// (digests are the first) may use of the Bot it runs in. Each is safe for
// concurrent use once New has returned.

// SlashCommand is the command users type ("/paper"), for hints and help.
func (b *Bot) SlashCommand() string { return b.cfg.SlashCommand }

// API is the Web API client the bot calls Slack with (rate-limit retries and
// metrics included).
func (b *Bot) API() SlackAPI { return b.api }

// Logger is the bot's logger.
func (b *Bot) Logger() *slog.Logger { return b.log }

// BotName is the bot's user name, for instructions such as /invite
// ("paperbot" until Run has checked the token).
func (b *Bot) BotName() string { return b.botName() }

// UsageReply reminds the user how to call the command name, as typed where
// req came from. name must be in the command table.
func (b *Bot) UsageReply(req *Request, name string) *Reply { return b.usageReply(req, name) }

// RegisterMetrics adds collectors to the bot's /metrics.
func (b *Bot) RegisterMetrics(cs ...prometheus.Collector) error {
	for _, c := range cs {
		if err := b.metrics.registry.Register(c); err != nil {
			return err
		}
	}
	return nil
}
