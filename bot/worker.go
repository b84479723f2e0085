package bot

import (
	"context"
	"errors"
	"fmt"
	"net"
	"runtime/debug"
)

// process handles one request on a worker: de-duplicate, dispatch, turn
// errors into friendly replies, deliver. A delivery that failed before
// anything reached the user is forgotten by the de-duplicator, so Slack's
// redelivery of the same event is processed again.
func (b *Bot) process(ctx context.Context, req *Request) {
	defer b.metrics.inFlight.Dec()
	ctx, cancel := context.WithTimeout(ctx, b.cfg.RequestTimeout)
	defer cancel()
	for {
		res, wait := b.dedup.claim(req.dedup)
		if res == claimed {
			break
		}
		if res == duplicate {
			b.metrics.duplicates.WithLabelValues(req.Source.String()).Inc()
			b.log.Debug("duplicate delivery dropped", "source", req.Source.String(), "user", req.User)
			return
		}
		select {
		case <-wait:
		case <-ctx.Done():
			return
		}
	}
	handled := false
	defer func() { b.dedup.finish(req.dedup, handled) }()

	rep, err := b.dispatch(ctx, req)
	sideEffect := rep != nil && rep.SideEffect
	if err != nil {
		rep = b.errorReply(req, err)
	}
	if rep == nil || rep.empty() {
		handled = err == nil || sideEffect
		return
	}
	if err := b.deliver(ctx, req, rep); err != nil {
		b.metrics.errors.WithLabelValues("slack").Inc()
		b.log.Error("reply not delivered", "source", req.Source.String(), "user", req.User, "channel", req.Channel, "err", err)
		handled = sideEffect || maybeDelivered(err)
		return
	}
	handled = true
	b.metrics.replyLatency.WithLabelValues(req.Source.String()).Observe(since(req.received))
}

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
	case req.Action != nil:
		h, ok := b.table.action(req.Action.ID)
		if !ok {
			b.log.Debug("click on unknown action ignored", "action", req.Action.ID)
			return nil, nil
		}
		return h(ctx, req)
	}
	cmd, args := b.table.route(req.Text)
	req.Args = args
	b.log.Debug("command", "source", req.Source.String(), "command", cmd.Name, "user", req.User, "channel", req.Channel)
	return cmd.Handler(ctx, req)
}

// maybeDelivered reports whether a failed post may still have reached Slack
// (a timeout after sending): then it must not be retried, or the user could
// see the reply twice.
func maybeDelivered(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
