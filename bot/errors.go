package bot

import (
	"errors"
	"fmt"

	"github.com/paperbot/paperbot/fault"
)

// apology is what the user reads when the failure is ours to fix.
const apology = ":confused: Sorry, something went wrong on my side. Please try again in a minute."

// errorReply is the one place where an error becomes what the user reads.
// An error of any kind but fault.Internal that carries a message written for
// the user (a *fault.Error's Msg) is shown as it is, ephemeral where Slack
// allows; anything else is logged with its detail and the user gets a
// generic apology. App Home and reactions have nowhere to show either: nil there.
func (b *Bot) errorReply(req *Request, err error) *Reply {
	if msg, ok := fault.UserMessage(err); ok {
		kind := fault.KindOf(err)
		b.metrics.errors.WithLabelValues(kind.Label()).Inc()
		b.log.Debug("request refused", "source", req.Source.String(), "user", req.User, "kind", kind.String(), "err", err)
		return textReply(":warning: "+Escape(msg), Ephemeral)
	}
	b.metrics.errors.WithLabelValues(fault.Internal.Label()).Inc()
	b.log.Error("request failed", "source", req.Source.String(), "user", req.User, "channel", req.Channel, "err", err)
	if req.Source == SourceHome || req.Source == SourceReaction {
		return nil
	}
	return textReply(apology, Ephemeral)
}

// refuse is an error whose message the user reads as it is: bad input they
// can fix, or a conversation the bot cannot post in.
func refuse(op, msg string) error { return fault.E(op, fault.Invalid, msg) }

// friendly prepares an error from digest or a subscription store for
// errorReply: invalid input already says how to fix it; an unknown
// subscription is told as such; anything else stays internal, with op added
// for the log.
func friendly(op string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, fault.Invalid):
		if _, ok := fault.UserMessage(err); ok {
			return err
		}
		return refuse(op, err.Error())
	case errors.Is(err, fault.NotFound):
		return &fault.Error{Op: op, Kind: fault.NotFound, Msg: "No such subscription.", Err: err}
	}
	return fmt.Errorf("%s: %w", op, err)
}
