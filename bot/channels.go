package bot

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/slack-go/slack"
)

// channelIDPattern matches Slack conversation IDs (C…, G…, D…).
// Channel names are lower case, so an upper-case word is never a name.
var channelIDPattern = regexp.MustCompile(`^[CGD][A-Z0-9]+$`)

// IsChannelID reports whether s looks like a Slack conversation ID rather
// than a channel name.
func IsChannelID(s string) bool { return channelIDPattern.MatchString(s) }

// ResolveChannel returns the ID of the channel called name ("#papers" or
// "papers") among the public channels and the private channels the bot is
// in, using cfg's bot token. An ID is returned as it is.
func ResolveChannel(ctx context.Context, cfg Config, name string) (string, error) {
	if IsChannelID(name) {
		return name, nil
	}
	want := strings.ToLower(strings.TrimPrefix(strings.TrimSpace(name), "#"))
	apiURL, err := NormalizeAPIURL(cfg.APIURL)
	if err != nil {
		return "", err
	}
	var api SlackAPI = slack.New(cfg.BotToken, slack.OptionAPIURL(apiURL),
		slack.OptionHTTPClient(&http.Client{Timeout: orDefault(cfg.HTTPTimeout, 10*time.Second)}))
	params := &slack.GetConversationsParameters{Types: []string{"public_channel", "private_channel"}, ExcludeArchived: true, Limit: 1000}
	for {
		chans, next, err := api.GetConversationsContext(ctx, params)
		if err != nil {
			return "", fmt.Errorf("looking up channel #%s: %w", want, err)
		}
		for _, c := range chans {
			if strings.EqualFold(c.Name, want) {
				return c.ID, nil
			}
		}
		if next == "" {
			return "", fmt.Errorf("no channel #%s that the bot can see (a private channel needs /invite @paperbot first); give its ID instead", want)
		}
		params.Cursor = next
	}
}
