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
	if onlyThanks(req.Text) {
		return textReply("You're welcome! Ask me about papers any time; `"+EscapeInline(req.helpCommand())+"` lists what I can do.", VisibilityDefault), nil
	}
	cmd, args := b.table.route(req.Text)
	req.Args = args
	b.log.Debug("command", "source", req.Source.String(), "command", cmd.Name, "user", req.User, "channel", req.Channel)
	return cmd.Handler(ctx, req)
}
