package bot

import (
	"context"
	"errors"

	"github.com/slack-go/slack"

	"github.com/paperbot/paperbot/fault"
)

// errStaleButton is shown when a button's value cannot be decoded (an old
// message from another version, or a forged payload).
var errStaleButton = refuse("button", "That button has expired. Please run the command again.")

// actPage shows another page. In a private message it replaces that message;
// in a public one it answers the clicker privately.
func (b *Bot) actPage(ctx context.Context, req *Request) (*Reply, error) {
	st, err := decodeState(req.Action.Value)
	if err != nil {
		return nil, errStaleButton
	}
	rep, err := b.showView(ctx, req, st, audience{})
	if err != nil {
		return nil, err
	}
	rep.ReplaceOriginal = req.Action.Ephemeral
	rep.Visibility = Ephemeral
	return rep, nil
}

// actAbstract shows a paper's whole abstract to the clicker.
func (b *Bot) actAbstract(ctx context.Context, req *Request) (*Reply, error) {
	id := paperID(req.Action.Value)
	if id == "" {
		return nil, errStaleButton
	}
	rep, err := b.showView(ctx, req, viewState{Kind: viewPaper, Arg: id}, audience{})
	if err != nil {
		return nil, err
	}
	rep.Visibility = Ephemeral
	return rep, nil
}

// actSimilar shows papers like the clicked one to the clicker.
func (b *Bot) actSimilar(ctx context.Context, req *Request) (*Reply, error) {
	id := paperID(req.Action.Value)
	if id == "" {
		return nil, errStaleButton
	}
	rep, err := b.showView(ctx, req, viewState{Kind: viewSimilar, Arg: id}, audience{})
	if err != nil {
		return nil, err
	}
	rep.Visibility = Ephemeral
	return rep, nil
}

// actShare posts the clicked view in the channel for everyone, marked as
// shared by the clicker, then deletes the private message it came from.
func (b *Bot) actShare(ctx context.Context, req *Request) (*Reply, error) {
	st, err := decodeState(req.Action.Value)
	if err != nil {
		return nil, errStaleButton
	}
	if req.Channel == "" {
		return nil, errors.New("share: click without a channel")
	}
	rep, err := b.showView(ctx, req, st, audience{Public: true, SharedBy: req.User})
	if err != nil {
		return nil, err
	}
	ts, err := b.Post(ctx, req.Channel, req.ThreadTS, *rep)
	if err != nil {
		var se slack.SlackErrorResponse
		if errors.As(err, &se) {
			switch se.Err {
			case "not_in_channel", "channel_not_found", "is_archived", "restricted_action":
				return nil, &fault.Error{Op: "share", Kind: fault.Invalid, Err: err,
					Msg: "I can't post in this conversation. Invite me with `/invite @" + b.botName() + "` and share again."}
			}
		}
		return nil, err
	}
	thread := ts
	if req.ThreadTS != "" {
		thread = req.ThreadTS
	}
	b.remember(ctx, req.Channel, thread, rep.shown)
	// Posted: from here on a redelivered click must not post again.
	return &Reply{DeleteOriginal: req.Action.Ephemeral, SideEffect: true}, nil
}

// botName is the bot's user name for instructions like /invite.
func (b *Bot) botName() string {
	if u := b.self().User; u != "" {
		return u
	}
	return "paperbot"
}
