package bot

import (
	"context"
	"errors"
	"net"
	"sync"
)

// startWorkers starts Config.Workers goroutines that process requests from
// the queue until it is closed; wait on the group for them to finish.
func (b *Bot) startWorkers(ctx context.Context) *sync.WaitGroup {
	var workers sync.WaitGroup
	for range b.cfg.Workers {
		workers.Go(func() {
			for req := range b.queue {
				b.process(ctx, req)
			}
		})
	}
	return &workers
}

// process handles one request on a worker: de-duplicate, dispatch, turn
// errors into friendly replies, deliver. A delivery that failed before
// anything reached the user is forgotten by the de-duplicator, so Slack's
// redelivery of the same event is processed again.
func (b *Bot) process(parent context.Context, req *Request) {
	defer b.metrics.inFlight.Dec()
	wctx, wcancel := context.WithTimeout(parent, b.cfg.RequestTimeout)
	defer wcancel()
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
		case <-wctx.Done():
			return
		}
	}
	won, err := b.claimShared(parent, req)
	if err != nil {
		// Never answered without the shared claim: another replica may
		// have Slack's retry of it.
		b.dedup.finish(req.dedup, false)
		b.log.Error("delivery dropped unanswered: shared de-duplication unavailable", "source", req.Source.String(),
			"user", req.User, "channel", req.Channel, "err", err)
		return
	}
	if !won {
		// Another replica has it. Not remembered here: should that replica
		// fail and release it, a later redelivery is answered.
		b.dedup.finish(req.dedup, false)
		b.metrics.duplicates.WithLabelValues(req.Source.String()).Inc()
		b.log.Debug("delivery handled by another replica dropped", "source", req.Source.String(), "user", req.User)
		return
	}
	// The handling gets its whole time, however long the database took.
	ctx, cancel := context.WithTimeout(parent, b.cfg.RequestTimeout)
	defer cancel()
	handled := false
	defer func() {
		b.finishShared(ctx, req, handled)
		b.dedup.finish(req.dedup, handled)
	}()

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
