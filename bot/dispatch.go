package bot

import (
	"context"
	"fmt"
	"runtime/debug"
)

// dispatch routes a request to its handler, converting a panic into an
// internal error so one bad request cannot take the bot down.
func (b *Bot) dispatch(ctx context.Context, req *Request) (rep *Reply, err error) {
	defer func() {
		if p := recover(); p != nil {
			b.log.Error("handler panicked", "source", req.Source.String(), "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			rep, err = nil, fmt.Errorf("handler panic: %v", p)
		}
	}()
	switch {
	case req.Source == SourceHome:
		return nil, b.publishHome(ctx, req.User)
	case req.Source == SourceUnfurl:
		return b.unfurl(ctx, req)
	case req.Shortcut != nil:
		return b.shortcut(ctx, req)
	case req.Source == SourceAssistant:
		return b.assistantStarted(ctx, req)
	case req.Reaction != nil:
		return b.onReaction(ctx, req)
	case req.Action != nil:
		h, ok := b.table.action(req.Action.ID)
		if !ok {
			b.log.Debug("click on unknown action ignored", "action", req.Action.ID)
			return nil, nil
		}
		return h(ctx, req)
	}
	if req.Source == SourceMention || req.Source == SourceDM {
		b.showSearching(ctx, req)
		th, ok := b.threadOf(ctx, req)
		if req.threadOnly && (!ok || !asks(req.Text)) {
			// A reply in someone's thread that is not for the bot, or
			// people talking to each other there, gets nothing.
			return nil, nil
		}
		if ok {
			if rep, ok, err := b.followUp(ctx, req, th); ok {
				return rep, err
			}
		}
		if req.threadOnly && (onlyThanks(req.Text) || !hasWordRune(req.Text)) {
			return nil, nil
		}
	}
	if onlyThanks(req.Text) {
		return textReply("You're welcome! Ask me about papers any time; `"+EscapeInline(req.helpCommand())+"` lists what I can do.", VisibilityDefault), nil
	}
	cmd, args := b.table.route(req.Text)
	req.Args = args
	b.log.Debug("command", "source", req.Source.String(), "command", cmd.Name, "user", req.User, "channel", req.Channel)
	return cmd.Handler(ctx, req)
}
