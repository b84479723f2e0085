package bot

import (
	"cmp"
	"strings"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"
)

// requestsFrom normalises a Socket Mode event into requests: none for events
// the bot ignores (its own and other bots' messages, edits and other
// subtypes, channel messages that are not mentions), one per button click.
func (b *Bot) requestsFrom(evt socketmode.Event, received time.Time) []*Request {
	env := evt.Request.EnvelopeID
	envKey := dedupKey{key: "env:" + env, keep: b.cfg.DedupTTL}
	var reqs []*Request
	switch evt.Type {
	case socketmode.EventTypeSlashCommand:
		cmd, ok := evt.Data.(slack.SlashCommand)
		if !ok {
			return nil
		}
		r := &Request{
			Source: SourceSlash, User: cmd.UserID, Channel: cmd.ChannelID,
			Text: PlainText(cmd.Text), Command: cmd.Command, Invocation: cmd.Command + " ",
			ResponseURL: cmd.ResponseURL, TriggerID: cmd.TriggerID,
			dedup: []dedupKey{envKey},
		}
		if cmd.Command == "" {
			r.Invocation = b.cfg.SlashCommand + " "
		}
		if cmd.TriggerID != "" {
			r.dedup = append(r.dedup, dedupKey{key: "trigger:" + cmd.TriggerID, keep: b.cfg.DedupTTL})
		}
		reqs = append(reqs, r)

	case socketmode.EventTypeEventsAPI:
		ev, ok := evt.Data.(slackevents.EventsAPIEvent)
		if !ok || ev.Type != slackevents.CallbackEvent {
			return nil
		}
		keys := []dedupKey{envKey}
		if cb, ok := ev.Data.(*slackevents.EventsAPICallbackEvent); ok && cb.EventID != "" {
			keys = append(keys, dedupKey{key: "event:" + cb.EventID, keep: b.cfg.DedupTTL})
		}
		if r := b.fromInnerEvent(ev.InnerEvent.Data); r != nil {
			if r.msgTS != "" {
				// A mention in a channel the bot is in comes twice, as
				// app_mention and as message: one answer.
				keys = append(keys, dedupKey{key: "msg:" + r.Channel + ":" + r.msgTS, keep: b.cfg.DedupTTL})
			}
			r.dedup = keys
			reqs = append(reqs, r)
		}

	case socketmode.EventTypeInteractive:
		cb, ok := evt.Data.(slack.InteractionCallback)
		if !ok {
			return nil
		}
		switch cb.Type {
		case slack.InteractionTypeBlockActions:
			reqs = b.fromBlockActions(cb, envKey)
		case slack.InteractionTypeMessageAction:
			reqs = append(reqs, b.fromMessageAction(cb, envKey))
		default:
			return nil
		}
	}
	for _, r := range reqs {
		r.received = received
	}
	return reqs
}

// fromInnerEvent handles app_mention, direct messages and app_home_opened.
func (b *Bot) fromInnerEvent(data any) *Request {
	self := b.self()
	switch e := data.(type) {
	case *slackevents.AppMentionEvent:
		// Direct messages arrive as message.im; answering their mention
		// too would reply twice.
		if e.BotID != "" || e.User == "" || e.User == self.UserID || e.Edited != nil || strings.HasPrefix(e.Channel, "D") {
			return nil
		}
		return b.mentionRequest(e.User, e.Channel, cmp.Or(e.ThreadTimeStamp, e.TimeStamp), e.Text, e.TimeStamp)
	case *slackevents.MessageEvent:
		return b.fromMessage(e, self)
	case *slackevents.AssistantThreadStartedEvent:
		return b.fromAssistantThread(e)
	case *slackevents.LinkSharedEvent:
		return b.fromLinkShared(e, self)
	case *slackevents.ReactionAddedEvent:
		return reactionRequest(self, e.User, e.ItemUser, e.Reaction, e.Item, true)
	case *slackevents.ReactionRemovedEvent:
		return reactionRequest(self, e.User, e.ItemUser, e.Reaction, e.Item, false)
	case *slackevents.AppHomeOpenedEvent:
		if e.User == "" || (e.Tab != "" && e.Tab != "home") {
			return nil
		}
		return &Request{Source: SourceHome, User: e.User, Channel: e.Channel}
	}
	return nil
}

// fromMessage handles message events: a direct message; in a channel, a
// message mentioning the bot (the twin of its app_mention) or a reply in a
// thread, which only a thread the bot answered in will answer. Edits,
// other subtypes, bots and replies addressed to someone else are ignored.
func (b *Bot) fromMessage(e *slackevents.MessageEvent, self AuthInfo) *Request {
	if e.SubType != "" && e.SubType != "thread_broadcast" || e.BotID != "" ||
		e.User == "" || e.User == self.UserID || e.IsEdited() {
		return nil
	}
	switch e.ChannelType {
	case slackevents.ChannelTypeIM:
		if e.SubType != "" {
			return nil
		}
		return &Request{Source: SourceDM, User: e.User, Channel: e.Channel, ThreadTS: e.ThreadTimeStamp,
			Text: PlainText(e.Text), msgTS: e.TimeStamp}
	case slackevents.ChannelTypeChannel, slackevents.ChannelTypeGroup:
	default:
		return nil
	}
	mention := self.UserID != "" && strings.Contains(e.Text, "<@"+self.UserID+">")
	thread := e.ThreadTimeStamp
	switch {
	case mention:
		return b.mentionRequest(e.User, e.Channel, cmp.Or(thread, e.TimeStamp), e.Text, e.TimeStamp)
	case thread == "" || thread == e.TimeStamp, strings.Contains(e.Text, "<@"):
		return nil // not in a thread, or talking to someone else
	}
	r := b.mentionRequest(e.User, e.Channel, thread, e.Text, e.TimeStamp)
	r.threadOnly = true
	return r
}

// mentionRequest is a channel message to the bot, answered in the thread of
// threadTS.
func (b *Bot) mentionRequest(user, channel, threadTS, text, msgTS string) *Request {
	return &Request{Source: SourceMention, User: user, Channel: channel, ThreadTS: threadTS,
		Text: PlainText(text), Invocation: b.mentionName() + " ", msgTS: msgTS}
}

// reactionRequest is a person's reaction on one of the bot's own messages;
// nil for anything else (reactions on people's messages, by bots, on files).
func reactionRequest(self AuthInfo, user, itemUser, name string, item slackevents.Item, added bool) *Request {
	if user == "" || user == self.UserID || itemUser == "" || itemUser != self.UserID || item.Type != "message" || item.Timestamp == "" {
		return nil
	}
	return &Request{Source: SourceReaction, User: user, Channel: item.Channel,
		Reaction: &ReactionInfo{Name: name, MessageTS: item.Timestamp, Added: added}}
}

// fromBlockActions turns each clicked action into a request. Identical
// clicks by the same user on the same message within Config.ClickWindow act
// once (a double click), as does a redelivered envelope or trigger.
func (b *Bot) fromBlockActions(cb slack.InteractionCallback, envKey dedupKey) []*Request {
	channel := cb.Channel.ID
	if channel == "" {
		channel = cb.Container.ChannelID
	}
	var reqs []*Request
	for _, a := range cb.ActionCallback.BlockActions {
		if a == nil {
			continue
		}
		msgTS := cb.Container.MessageTs
		value := a.Value
		if a.Type == slack.ActionType(slack.METOverflow) || a.Type == slack.ActionType(slack.OptTypeStatic) {
			value = a.SelectedOption.Value // a menu's value is the option chosen
		}
		keys := []dedupKey{
			{key: envKey.key + ":" + a.ActionID, keep: envKey.keep},
			{key: "click:" + cb.User.ID + ":" + msgTS + ":" + a.ActionID + ":" + value, keep: b.cfg.ClickWindow},
		}
		if cb.TriggerID != "" {
			keys = append(keys, dedupKey{key: "trigger:" + cb.TriggerID + ":" + a.ActionID, keep: b.cfg.DedupTTL})
		}
		reqs = append(reqs, &Request{
			Source: SourceAction, User: cb.User.ID, Channel: channel, ThreadTS: cb.Container.ThreadTs,
			ResponseURL: cb.ResponseURL, TriggerID: cb.TriggerID, Invocation: b.cfg.SlashCommand + " ",
			Action: &ActionInfo{ID: a.ActionID, BlockID: a.BlockID, Value: value, MessageTS: msgTS, Ephemeral: cb.Container.IsEphemeral, Message: messageOf(cb)},
			dedup:  keys,
		})
	}
	return reqs
}

// messageOf is the message a click came from, as the payload carries it
// (Slack sends none for ephemeral messages or App Home): nil then, and nil
// for a click in the app's unfurl of a link, whose card is not in that
// message (someone else's, which the app cannot replace).
func messageOf(cb slack.InteractionCallback) *slack.Message {
	if cb.Container.IsAppUnfurl || cb.Message.Timestamp == "" || len(cb.Message.Blocks.BlockSet) == 0 {
		return nil
	}
	m := cb.Message
	return &m
}

// self is the bot's identity from auth.test (zero before Run).
func (b *Bot) self() AuthInfo {
	if p := b.identity.Load(); p != nil {
		return *p
	}
	return AuthInfo{}
}

// mentionName is how users mention the bot, for help text.
func (b *Bot) mentionName() string {
	if u := b.self().User; u != "" {
		return "@" + u
	}
	return "@paperbot"
}
