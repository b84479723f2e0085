package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/slack-go/slack"

	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/fault"
)

func (d *Digests) cmdSubscriptions(ctx context.Context, req *Request) (*Reply, error) {
	if d.bot == nil {
		return nil, errNotReady
	}
	subs, err := d.store.ByChannel(ctx, req.Channel)
	if err != nil {
		return nil, err
	}
	return renderSubscriptions(subs, req.Channel, d.bot.SlashCommand(), d.now()), nil
}

// channelSub returns the subscription with the typed ID if it belongs to
// the channel; otherwise a friendly not-found error.
func (d *Digests) channelSub(ctx context.Context, channel, typed string) (digest.Subscription, error) {
	id := digest.NormalizeID(strings.Trim(typed, "`"))
	notFound := &fault.Error{Op: "subscription", Kind: fault.NotFound,
		Msg: fmt.Sprintf("No subscription `%s` in this channel. `%s` lists them.", EscapeInline(Truncate(id, 20)),
			EscapeInline(d.bot.SlashCommand()+" subscriptions"))}
	if !digest.ValidID(id) {
		return digest.Subscription{}, notFound
	}
	s, err := d.store.Get(ctx, id)
	if errors.Is(err, fault.NotFound) || (err == nil && s.ChannelID != channel) {
		return digest.Subscription{}, notFound
	}
	return s, err
}

// subByTopic finds the channel's one subscription on the topic typed (case,
// spacing and quotes aside); ok is false when none or several match.
func (d *Digests) subByTopic(ctx context.Context, channel, typed string) (digest.Subscription, bool, error) {
	key := func(t string) string {
		return strings.ToLower(strings.Join(strings.Fields(strings.Trim(t, "`\"“”' ")), " "))
	}
	subs, err := d.store.ByChannel(ctx, channel)
	if err != nil {
		return digest.Subscription{}, false, err
	}
	var found []digest.Subscription
	for _, s := range subs {
		if key(s.Topic) == key(typed) {
			found = append(found, s)
		}
	}
	if len(found) != 1 {
		return digest.Subscription{}, false, nil
	}
	return found[0], true, nil
}

func (d *Digests) unsubscribe(ctx context.Context, req *Request, typed string) (digest.Subscription, error) {
	s, err := d.channelSub(ctx, req.Channel, typed)
	if err != nil {
		return s, err
	}
	if err := d.store.Delete(ctx, s.ID); err != nil {
		return s, friendly("unsubscribe", err)
	}
	d.bot.Logger().Info("digest subscription deleted", "subscription", s.ID, "channel", s.ChannelID, "user", req.User)
	return s, nil
}

func (d *Digests) cmdUnsubscribe(ctx context.Context, req *Request) (*Reply, error) {
	if d.bot == nil {
		return nil, errNotReady
	}
	f := strings.Fields(req.Args)
	if len(f) == 0 {
		return d.bot.UsageReply(req, cmdUnsubscribe), nil
	}
	typed := f[0]
	if id := digest.NormalizeID(strings.Trim(typed, "`")); len(f) > 1 || !digest.ValidID(id) {
		// "/paper unsubscribe kv cache": the topic, as the list shows it.
		sub, ok, err := d.subByTopic(ctx, req.Channel, req.Args)
		if err != nil {
			return nil, err
		}
		if ok {
			typed = sub.ID
		}
	}
	s, err := d.unsubscribe(ctx, req, typed)
	if err != nil {
		return nil, err
	}
	rep := textReply(fmt.Sprintf("Unsubscribed: no more digests on “%s” (`%s`) here.", EscapeInline(s.Topic), s.ID), Ephemeral)
	rep.SideEffect = true
	return rep, nil
}

// actRemove is the Unsubscribe button of the list: it deletes and shows the
// list again in place.
func (d *Digests) actRemove(ctx context.Context, req *Request) (*Reply, error) {
	if d.bot == nil {
		return nil, errNotReady
	}
	s, err := d.unsubscribe(ctx, req, req.Action.Value)
	if err != nil {
		return nil, err
	}
	subs, err := d.store.ByChannel(ctx, req.Channel)
	if err != nil {
		return &Reply{SideEffect: true}, err // unsubscribed all the same
	}
	rep := renderSubscriptions(subs, req.Channel, d.bot.SlashCommand(), d.now())
	rep.Text = fmt.Sprintf("Unsubscribed “%s” (`%s`). %s", EscapeInline(s.Topic), s.ID, rep.Text)
	rep.ReplaceOriginal = req.Action.Ephemeral
	rep.SideEffect = true
	return rep, nil
}

// cmdResume restarts a paused subscription once the bot can post again.
func (d *Digests) cmdResume(ctx context.Context, req *Request) (*Reply, error) {
	if d.bot == nil {
		return nil, errNotReady
	}
	f := strings.Fields(req.Args)
	if len(f) == 0 {
		return d.bot.UsageReply(req, cmdResume), nil
	}
	s, err := d.channelSub(ctx, req.Channel, f[0])
	if err != nil {
		return nil, err
	}
	if !s.Paused {
		return textReply(fmt.Sprintf("“%s” (`%s`) is not paused.", EscapeInline(s.Topic), s.ID), Ephemeral), nil
	}
	join, err := d.checkChannel(ctx, req.Channel)
	if err != nil {
		return nil, err
	}
	if join {
		if _, _, _, err := d.bot.API().JoinConversationContext(ctx, req.Channel); err != nil {
			return nil, refuse("resume", "I still can't post here. Run `/invite @"+EscapeInline(d.bot.BotName())+"` in this channel, then resume again.")
		}
	}
	if err := d.store.Resume(ctx, s.ID, d.now()); err != nil {
		return nil, friendly("resume", err)
	}
	rep := textReply(fmt.Sprintf(":arrow_forward: Resumed “%s” (`%s`): next digest %s.", EscapeInline(s.Topic), s.ID,
		slackDate(s.Schedule.Next(d.now()))), Ephemeral)
	rep.SideEffect = true
	return rep, nil
}

// cmdDigest previews, privately, the channel's next digests as if they ran now.
func (d *Digests) cmdDigest(ctx context.Context, req *Request) (*Reply, error) {
	if d.bot == nil {
		return nil, errNotReady
	}
	ds, err := digest.PreviewChannel(ctx, d.store, d.searcher, req.Channel, d.papers(), d.now(), d.cfg.Fresh)
	if err != nil {
		return nil, err
	}
	if len(ds) == 0 {
		return textReply(fmt.Sprintf("<#%s> has no active digest subscriptions. Start one with `%s`.", req.Channel,
			EscapeInline(d.bot.SlashCommand()+" subscribe graph neural networks at 09:00")), Ephemeral), nil
	}
	rep := &Reply{Visibility: Ephemeral}
	var texts []string
	for i, dg := range ds {
		m := renderDigest(dg, digestRender{Slash: d.bot.SlashCommand(), Preview: true, IDBase: i * 1000})[0]
		if len(rep.Blocks)+len(m.Blocks) > 48 {
			texts = append(texts, "(more digests: too many to preview at once)")
			break
		}
		rep.Blocks = append(rep.Blocks, m.Blocks...)
		texts = append(texts, m.Text)
	}
	rep.Text = Truncate(strings.Join(texts, " · "), sectionBudget)
	return rep, nil
}

// homeBlocks is the App Home section: the user's subscriptions everywhere.
func (d *Digests) homeBlocks(ctx context.Context, user string) ([]slack.Block, error) {
	subs, err := d.store.ByCreator(ctx, user)
	if err != nil {
		return nil, err
	}
	slash := "/paper"
	if d.bot != nil {
		slash = d.bot.SlashCommand()
	}
	return renderHomeDigests(subs, slash, d.now()), nil
}
