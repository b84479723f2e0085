package bot

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// SharedDedup de-duplicates deliveries across replicas: Slack delivers an
// event to one of an app's Socket Mode connections and may retry it on
// another, so the in-process de-duplicator alone would answer it twice.
// pgstore.Store implements it in the database every replica uses.
type SharedDedup interface {
	// ClaimDeliveries takes keys for this process for hold (then another
	// replica may take them over, as after a crash). It returns false when
	// any key is handled or held elsewhere: the delivery is a duplicate.
	ClaimDeliveries(ctx context.Context, keys []string, hold time.Duration) (bool, error)
	// FinishDeliveries ends a claim: handled keys are remembered for keep,
	// unhandled ones are released so a redelivery is processed again.
	FinishDeliveries(ctx context.Context, keys []string, handled bool, keep time.Duration) error
}

// WithSharedDedup de-duplicates deliveries in d as well as in memory, for
// replicas sharing one Slack app. It fails closed: a delivery is answered
// only once d has recorded the claim. While d fails, the delivery (already
// acknowledged) waits and the claim is retried with backoff, for up to
// Config.SharedWait; if d is still failing then, the delivery is dropped
// unanswered and logged, rather than risk a second answer from a replica
// that got Slack's retry.
func WithSharedDedup(d SharedDedup) Option {
	return func(o *options) { o.shared = d }
}

// sharedWait bounds one claim or release, so a hung database connection is
// retried rather than waited on.
const sharedWait = 5 * time.Second

// Backoff between attempts at the shared de-duplicator.
const (
	sharedBackoffMin = 100 * time.Millisecond
	sharedBackoffMax = 2 * time.Second
)

// sharedKeys are a delivery's keys for the shared de-duplicator, sorted
// (claims taking rows in one order cannot deadlock), with the longest keep.
func sharedKeys(keys []dedupKey) ([]string, time.Duration) {
	out := make([]string, 0, len(keys))
	var keep time.Duration
	for _, k := range keys {
		out = append(out, k.key)
		keep = max(keep, k.keep)
	}
	slices.Sort(out)
	return slices.Compact(out), keep
}

// claimShared claims req's keys in the shared de-duplicator: won is false
// when another replica has or had the delivery. err is set when the
// de-duplicator kept failing for Config.SharedWait, or ctx ended first: then
// the delivery must not be answered.
func (b *Bot) claimShared(ctx context.Context, req *Request) (won bool, err error) {
	if b.shared == nil {
		return true, nil
	}
	keys, _ := sharedKeys(req.dedup)
	err = b.retryShared(ctx, req, "claim", func(ctx context.Context) error {
		// Held for as long as handling may take, and a margin.
		var err error
		won, err = b.shared.ClaimDeliveries(ctx, keys, b.cfg.RequestTimeout+time.Minute)
		return err
	})
	return won, err
}

// finishShared records the outcome of a delivery claimed with claimShared,
// retrying like the claim: an answered delivery whose record is lost could
// be answered again by a replica that gets Slack's retry after the hold.
func (b *Bot) finishShared(ctx context.Context, req *Request, handled bool) {
	if b.shared == nil {
		return
	}
	keys, keep := sharedKeys(req.dedup)
	err := b.retryShared(context.WithoutCancel(ctx), req, "record", func(ctx context.Context) error {
		return b.shared.FinishDeliveries(ctx, keys, handled, keep)
	})
	if err != nil {
		b.log.Error("shared de-duplication: recording a delivery failed", "source", req.Source.String(), "handled", handled, "err", err)
	}
}

// retryShared runs op until it succeeds, ctx ends or Config.SharedWait
// passes, each attempt bounded by sharedWait, with doubling pauses between.
// The first failure is logged as a warning; the last error is returned.
func (b *Bot) retryShared(ctx context.Context, req *Request, what string, op func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, b.cfg.SharedWait)
	defer cancel()
	pause := sharedBackoffMin
	for attempt := 1; ; attempt++ {
		actx, acancel := context.WithTimeout(ctx, sharedWait)
		start := time.Now()
		err := op(actx)
		acancel()
		if err == nil {
			b.metrics.shared.WithLabelValues(what).Observe(since(start))
			if attempt > 1 {
				b.log.Info("shared de-duplication answers again", "op", what, "source", req.Source.String(), "attempts", attempt)
			}
			return nil
		}
		b.metrics.errors.WithLabelValues("database").Inc()
		if attempt == 1 {
			b.log.Warn("shared de-duplication failed; holding the delivery and retrying", "op", what,
				"source", req.Source.String(), "err", err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s after %d attempts: %w", what, attempt, err)
		case <-time.After(pause):
		}
		pause = min(2*pause, sharedBackoffMax)
	}
}
