package bot

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/slack-go/slack"

	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/fault"
	"github.com/paperbot/paperbot/search"
)

// Command names and button action prefixes of the digest feature.
const (
	cmdSubscribe     = "subscribe"
	cmdSubscriptions = "subscriptions"
	cmdUnsubscribe   = "unsubscribe"
	cmdResume        = "resume"
	cmdDigest        = "digest"

	actionSubConfirm = "sub-confirm"
	actionSubCancel  = "sub-cancel"
	actionSubRemove  = "sub-remove"
)

func (d *Digests) commands() []Command {
	handlers := map[string]Handler{
		cmdSubscribe: d.cmdSubscribe, cmdSubscriptions: d.cmdSubscriptions, cmdUnsubscribe: d.cmdUnsubscribe,
		cmdResume: d.cmdResume, cmdDigest: d.cmdDigest,
	}
	return digestCommands(func(name string) Handler { return handlers[name] })
}

// digestCommands is the digest feature's rows of the command table, each
// with the handler handlerFor gives its name.
func digestCommands(handlerFor func(name string) Handler) []Command {
	return []Command{
		{Name: cmdSubscribe, Usage: "subscribe TOPIC [at HH:MM] [tz Area/City] [daily|weekdays|weekly DAY]",
			Example: "subscribe graph neural networks at 09:00 weekdays",
			Help:    "Post a digest of new papers on a topic in this channel (preview first; defaults: 09:00 your time, weekdays).",
			Handler: handlerFor(cmdSubscribe)},
		{Name: cmdSubscriptions, Usage: "subscriptions", Example: "subscriptions",
			Help: "List this channel's digest subscriptions, with their next run.", Handler: handlerFor(cmdSubscriptions)},
		{Name: cmdUnsubscribe, Usage: "unsubscribe ID", Example: "unsubscribe s7k2qm",
			Help: "Stop one of this channel's digests (by ID, or by its topic).", Handler: handlerFor(cmdUnsubscribe)},
		{Name: cmdResume, Usage: "resume ID", Example: "resume s7k2qm",
			Help: "Restart a paused digest once I can post here again.", Handler: handlerFor(cmdResume)},
		{Name: cmdDigest, Usage: "digest", Example: "digest",
			Help: "Preview, privately, what this channel's next digest would contain now.", Handler: handlerFor(cmdDigest)},
	}
}

func (d *Digests) actions() []Action {
	return []Action{
		{Prefix: actionSubConfirm, Handler: d.actConfirm},
		{Prefix: actionSubCancel, Handler: d.actCancel},
		{Prefix: actionSubRemove, Handler: d.actRemove},
	}
}

// errNotReady is returned when a command arrives before Attach.
var errNotReady = errors.New("digests: Attach was not called")

// pendingSub is what the Confirm button carries: the parsed command.
type pendingSub struct {
	Topic    string          `json:"t"`
	Schedule digest.Schedule `json:"s"`
}

func (p pendingSub) encode() string {
	b, _ := json.Marshal(p) // plain data: cannot fail
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodePending(v string) (pendingSub, error) {
	var p pendingSub
	b, err := base64.RawURLEncoding.DecodeString(v)
	if err == nil {
		err = json.Unmarshal(b, &p)
	}
	if err == nil && strings.TrimSpace(p.Topic) == "" {
		err = errors.New("no topic")
	}
	if err == nil {
		err = p.Schedule.Validate()
	}
	return p, err
}

// cmdSubscribe parses the subscription, checks the channel can receive
// digests and answers with a private preview and Confirm/Cancel buttons.
// Nothing is stored until Confirm.
func (d *Digests) cmdSubscribe(ctx context.Context, req *Request) (*Reply, error) {
	if d.bot == nil {
		return nil, errNotReady
	}
	topic, sched, err := digest.ParseSubscribe(req.Args)
	if err != nil {
		return nil, friendly("subscribe", err)
	}
	if sched.TZ == "" {
		sched.TZ = d.userZone(ctx, req.User)
	}
	if err := sched.Validate(); err != nil {
		return nil, friendly("subscribe", err)
	}
	if _, err := d.checkChannel(ctx, req.Channel); err != nil {
		return nil, err
	}
	if dup, err := d.duplicate(ctx, req.Channel, topic); err != nil || dup != nil {
		if err != nil {
			return nil, err
		}
		return nil, refuse("subscribe", fmt.Sprintf("This channel already follows “%s” (`%s`). `%s` lists its digests.",
			EscapeInline(dup.Topic), dup.ID, EscapeInline(d.bot.SlashCommand()+" subscriptions")))
	}
	p := pendingSub{Topic: topic, Schedule: sched}
	if d.cfg.Fresh.On() {
		// The first digest reaches back NewDays: preview what arrived then.
		res, err := d.recentMatches(ctx, topic)
		if err != nil {
			return nil, err
		}
		return renderSubscribePreview(p, res, req.Channel, d.papers(), sched.Next(d.now()), d.cfg.Fresh.Days()), nil
	}
	res, err := d.searcher.Search(ctx, search.Request{Text: topic, Limit: 3})
	if err != nil {
		return nil, err // the query language's own errors are friendly
	}
	return renderSubscribePreview(p, res, req.Channel, d.papers(), sched.Next(d.now()), 0), nil
}

// recentMatches are the papers on topic that arrived from the followed
// sources in the last Fresh.Days days, best first, up to three, with their
// count among the first results scanned.
func (d *Digests) recentMatches(ctx context.Context, topic string) (*search.Results, error) {
	since := d.now().AddDate(0, 0, -d.cfg.Fresh.Days())
	res, err := d.searcher.Search(ctx, search.Request{Text: topic, Limit: 50, Filter: search.Filter{SeenSince: since}})
	if err != nil || res.NoMatch {
		return res, err
	}
	ids := make([]string, len(res.Results))
	for i, r := range res.Results {
		ids[i] = r.ID
	}
	seen := d.cfg.Fresh.Arrivals.FirstSeen(ids)
	out := *res
	out.Results, out.Total = nil, 0
	for _, r := range res.Results {
		if t, ok := seen[r.ID]; ok && t.After(since) {
			if out.Total++; len(out.Results) < 3 {
				out.Results = append(out.Results, r)
			}
		}
	}
	return &out, nil
}

// userZone is the user's time zone from users.info, UTC when unknown.
func (d *Digests) userZone(ctx context.Context, user string) string {
	u, err := d.bot.API().GetUserInfoContext(ctx, user)
	if err != nil {
		d.bot.Logger().Warn("users.info failed; using UTC", "user", user, "err", err)
		return "UTC"
	}
	if (digest.Schedule{TZ: u.TZ}).Validate() != nil {
		return "UTC" // no zone in the profile, or one this build does not know
	}
	return u.TZ
}

// checkChannel refuses channels the bot cannot post digests to, with advice.
// join reports a public channel the bot is not in yet: Confirm joins it.
func (d *Digests) checkChannel(ctx context.Context, channel string) (join bool, err error) {
	invite := "`/invite @" + EscapeInline(d.bot.BotName()) + "`"
	notMember := func(why string) error {
		return refuse("subscribe", why+" Run "+invite+" in this channel first, then subscribe again.")
	}
	ch, err := d.bot.API().GetConversationInfoContext(ctx, &slack.GetConversationInfoInput{ChannelID: channel})
	var se slack.SlackErrorResponse
	switch {
	case errors.As(err, &se) && (se.Err == "channel_not_found" || se.Err == "not_in_channel"):
		// Slack hides private channels from apps that are not in them.
		return false, notMember("I can't post digests here: this is a private channel and I'm not a member.")
	case err != nil:
		return false, fmt.Errorf("conversations.info %s: %w", channel, err)
	case ch.IsArchived:
		return false, refuse("subscribe", "This channel is archived; digests can't be posted here.")
	case ch.IsIM:
		return false, nil
	case !ch.IsMember && (ch.IsPrivate || ch.IsMpIM):
		return false, notMember("I can't post digests here: this is a private channel and I'm not a member.")
	}
	return !ch.IsMember, nil
}

// duplicate returns the channel's subscription to the same topic, if any.
func (d *Digests) duplicate(ctx context.Context, channel, topic string) (*digest.Subscription, error) {
	subs, err := d.store.ByChannel(ctx, channel)
	if err != nil {
		return nil, err
	}
	for _, s := range subs {
		if strings.EqualFold(strings.Join(strings.Fields(s.Topic), " "), strings.Join(strings.Fields(topic), " ")) {
			return &s, nil
		}
	}
	return nil, nil
}

// actConfirm creates the subscription the preview showed.
func (d *Digests) actConfirm(ctx context.Context, req *Request) (*Reply, error) {
	if d.bot == nil {
		return nil, errNotReady
	}
	p, err := decodePending(req.Action.Value)
	if err != nil {
		return nil, errStaleButton
	}
	join, err := d.checkChannel(ctx, req.Channel)
	if err != nil {
		return nil, err
	}
	if dup, err := d.duplicate(ctx, req.Channel, p.Topic); err != nil || dup != nil {
		if err != nil {
			return nil, err
		}
		return &Reply{Text: fmt.Sprintf("This channel already follows “%s” (`%s`).", EscapeInline(dup.Topic), dup.ID),
			Visibility: Ephemeral, ReplaceOriginal: req.Action.Ephemeral}, nil
	}
	if join {
		if _, _, _, err := d.bot.API().JoinConversationContext(ctx, req.Channel); err != nil {
			d.bot.Logger().Warn("joining channel for a digest failed", "channel", req.Channel, "err", err)
			return nil, refuse("subscribe", "I couldn't join this channel. Run `/invite @"+EscapeInline(d.bot.BotName())+"` here, then subscribe again.")
		}
	}
	sub := digest.Subscription{ChannelID: req.Channel, CreatedBy: req.User, Topic: p.Topic, Schedule: p.Schedule, CreatedAt: d.now()}
	for range 5 { // a 31^5 ID space: a clash is rare, five in a row is a bug
		sub.ID = digest.NewID()
		if err = d.store.Create(ctx, sub); !errors.Is(err, fault.Exists) {
			break
		}
	}
	if err != nil {
		return nil, friendly("subscribe", err)
	}
	d.bot.Logger().Info("digest subscription created", "subscription", sub.ID, "channel", sub.ChannelID, "user", sub.CreatedBy)
	rep := renderSubscribed(sub, d.bot.SlashCommand(), sub.Schedule.Next(d.now()))
	rep.ReplaceOriginal = req.Action.Ephemeral
	rep.SideEffect = true
	return rep, nil
}

// actCancel drops the preview.
func (d *Digests) actCancel(_ context.Context, req *Request) (*Reply, error) {
	if req.Action.Ephemeral {
		return &Reply{DeleteOriginal: true}, nil
	}
	return textReply("Cancelled: no subscription was created.", Ephemeral), nil
}
