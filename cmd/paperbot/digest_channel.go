package main

import (
	"context"
	"time"

	"github.com/paperbot/paperbot/bot"
	"github.com/paperbot/paperbot/bot/digest"
)

// resolveChannel turns --channel into a channel ID: an ID as it is, a name
// (#papers) through Slack with the bot token, or a usage error saying an ID
// is needed when there is no token to look names up with.
func resolveChannel(e *env, channel string) (string, error) {
	if bot.IsChannelID(channel) {
		return channel, nil
	}
	if e.cfg.BotToken == "" {
		return "", usagef("%s is not a channel ID: give the ID (C0123456789, in Slack: channel details, at the bottom), "+
			"or set SLACK_BOT_TOKEN so the name can be looked up", channel)
	}
	ctx, cancel := context.WithTimeout(e.ctx, 30*time.Second)
	defer cancel()
	return bot.ResolveChannel(ctx, e.cfg.botConfig(), channel)
}

// digestPreview is `digest --dry-run --json`: per active subscription, the
// run it would be and the papers it would post.
type digestPreview struct {
	Channel string          `json:"channel"`
	Digests []digestPlanned `json:"digests"`
}

type digestPlanned struct {
	Subscription digest.Subscription `json:"subscription"`
	Scheduled    time.Time           `json:"scheduled"`
	Late         bool                `json:"late"`
	NothingNew   bool                `json:"nothing_new"`
	Papers       []digestPaper       `json:"papers"`
}

type digestPaper struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	URL   string `json:"url"`
	// LiftedBy is the liked paper whose votes moved this one up, From its
	// place in the topic's own order (1-based); absent when votes did not.
	LiftedBy string `json:"lifted_by,omitempty"`
	From     int    `json:"lifted_from,omitempty"`
}

func digestJSON(channel string, ds []digest.Digest) digestPreview {
	out := digestPreview{Channel: channel, Digests: []digestPlanned{}}
	for _, d := range ds {
		p := digestPlanned{Subscription: d.Subscription, Scheduled: d.Scheduled, Late: d.Late, NothingNew: d.NothingNew, Papers: []digestPaper{}}
		for _, r := range d.Papers {
			dp := digestPaper{ID: r.ID, Title: r.Headline, URL: r.URL}
			if l, ok := d.Lifted[r.ID]; ok {
				dp.LiftedBy, dp.From = l.Because, l.From
			}
			p.Papers = append(p.Papers, dp)
		}
		out.Digests = append(out.Digests, p)
	}
	return out
}
