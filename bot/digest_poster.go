package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/slack-go/slack"

	"github.com/paperbot/paperbot/bot/digest"
)

// Message metadata event types of digest messages. The run key in their
// payload is what lets a restarted scheduler recognise a digest it posted
// before it died.
const (
	DigestEventType     = "paperbot_digest"
	DigestPartEventType = "paperbot_digest_part" // thread continuations
)

// maxFindPages bounds the conversations.history pages Find reads.
const maxFindPages = 10

// DigestPoster posts digests and direct messages with the bot's Web API
// client; it implements digest.Poster and digest.Notifier. Safe for
// concurrent use.
type DigestPoster struct {
	b *Bot
}

var (
	_ digest.Poster   = (*DigestPoster)(nil)
	_ digest.Notifier = (*DigestPoster)(nil)
)

// DigestPoster returns the bot's digest poster.
func (b *Bot) DigestPoster() *DigestPoster { return &DigestPoster{b: b} }

// Post posts the digest's first message with the run key in its metadata
// and the rest in its thread, each reply carrying its part number. Errors
// retrying cannot fix are *digest.UnpostableError. When a reply fails after
// the first message went out, Post stops and returns the ts with an error
// wrapping digest.ErrIncomplete: the scheduler keeps the run open, finds the
// message and calls Complete, so no part is posted twice or lost.
func (p *DigestPoster) Post(ctx context.Context, d digest.Digest) (string, error) {
	msgs := RenderDigest(d, p.b.cfg.SlashCommand)
	first := p.b.safeReply(&msgs[0])
	_, ts, err := p.b.api.PostMessageContext(ctx, d.Subscription.ChannelID, append(msgOptions("", first), digestMeta(d, 1))...)
	if err != nil {
		return "", classifySlackError(err)
	}
	p.b.remember(ctx, d.Subscription.ChannelID, ts, cardsOf(d.Subscription.Topic, d.Papers))
	if err := p.postParts(ctx, d, ts, msgs, nil); err != nil {
		return ts, err
	}
	return ts, nil
}

// Complete posts the thread replies of d that are not under ts yet.
func (p *DigestPoster) Complete(ctx context.Context, d digest.Digest, ts string) error {
	msgs := RenderDigest(d, p.b.cfg.SlashCommand)
	if len(msgs) < 2 {
		return nil
	}
	have, err := p.postedParts(ctx, d, ts)
	if err != nil {
		return classifySlackError(err)
	}
	return p.postParts(ctx, d, ts, msgs, have)
}

// postParts posts msgs[1:] in the thread of ts, in order, skipping the
// part numbers in have.
func (p *DigestPoster) postParts(ctx context.Context, d digest.Digest, ts string, msgs []Reply, have map[int]bool) error {
	for i := 1; i < len(msgs); i++ {
		part := i + 1
		if have[part] {
			continue
		}
		r := p.b.safeReply(&msgs[i])
		if _, _, err := p.b.api.PostMessageContext(ctx, d.Subscription.ChannelID, append(msgOptions(ts, r), digestMeta(d, part))...); err != nil {
			p.b.metrics.errors.WithLabelValues("slack").Inc()
			return fmt.Errorf("%w: part %d of %d: %w", digest.ErrIncomplete, part, len(msgs), classifySlackError(err))
		}
	}
	return nil
}

// postedParts reads the digest's thread for the part numbers already there.
func (p *DigestPoster) postedParts(ctx context.Context, d digest.Digest, ts string) (map[int]bool, error) {
	have := map[int]bool{}
	params := &slack.GetConversationRepliesParameters{ChannelID: d.Subscription.ChannelID, Timestamp: ts, Limit: 200, IncludeAllMetadata: true}
	for range maxFindPages {
		msgs, hasMore, cursor, err := p.b.api.GetConversationRepliesContext(ctx, params)
		if err != nil {
			return nil, err
		}
		for _, m := range msgs {
			if m.Metadata.EventType == DigestPartEventType && m.Metadata.EventPayload["run"] == d.Key.String() {
				if n, err := strconv.Atoi(fmt.Sprint(m.Metadata.EventPayload["part"])); err == nil {
					have[n] = true
				}
			}
		}
		if !hasMore || cursor == "" {
			break
		}
		params.Cursor = cursor
	}
	return have, nil
}

// digestMeta is the message metadata of part n (1 is the top message).
func digestMeta(d digest.Digest, part int) slack.MsgOption {
	event := DigestEventType
	if part > 1 {
		event = DigestPartEventType
	}
	return slack.MsgOptionMetadata(slack.SlackMetadata{EventType: event,
		EventPayload: map[string]any{"run": d.Key.String(), "subscription": d.Subscription.ID, "part": part}})
}

// Find looks through the channel's history since the day before the run's
// date for a digest message carrying the run key.
func (p *DigestPoster) Find(ctx context.Context, channelID string, key digest.RunKey) (string, bool, error) {
	d := key.Day.AddDays(-1)
	oldest := time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC)
	params := &slack.GetConversationHistoryParameters{ChannelID: channelID, Oldest: strconv.FormatInt(oldest.Unix(), 10) + ".000000",
		Limit: 200, IncludeAllMetadata: true}
	self := p.b.self()
	for range maxFindPages {
		res, err := p.b.api.GetConversationHistoryContext(ctx, params)
		if err != nil {
			return "", false, classifySlackError(err)
		}
		for _, m := range res.Messages {
			mine := m.BotID != "" && (self.BotID == "" || m.BotID == self.BotID) || (self.UserID != "" && m.User == self.UserID)
			if mine && m.Metadata.EventType == DigestEventType && m.Metadata.EventPayload["run"] == key.String() {
				return m.Timestamp, true, nil
			}
		}
		if !res.HasMore || res.ResponseMetaData.NextCursor == "" {
			return "", false, nil
		}
		params.Cursor = res.ResponseMetaData.NextCursor
	}
	return "", false, fmt.Errorf("digest %s: not found in the last %d history pages", key, maxFindPages)
}

// Notify sends a direct message (mrkdwn text, already escaped) to a user.
func (p *DigestPoster) Notify(ctx context.Context, userID, text string) error {
	ch, _, _, err := p.b.api.OpenConversationContext(ctx, &slack.OpenConversationParameters{Users: []string{userID}})
	if err != nil {
		return fmt.Errorf("open DM with %s: %w", userID, err)
	}
	rep := p.b.safeReply(textReply(text, InChannel))
	_, _, err = p.b.api.PostMessageContext(ctx, ch.ID, msgOptions("", rep)...)
	return err
}

// classifySlackError turns the Slack errors retrying cannot fix into
// *digest.UnpostableError.
func classifySlackError(err error) error {
	var se slack.SlackErrorResponse
	if errors.As(err, &se) && slices.Contains(digest.UnpostableCodes, se.Err) {
		return fmt.Errorf("%w (%v)", &digest.UnpostableError{Code: se.Err}, err)
	}
	return err
}
