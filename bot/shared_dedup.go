package bot

import (
	"context"
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
// replicas sharing one Slack app. When d fails, the bot logs it and answers
// (a possible double answer rather than none).
func WithSharedDedup(d SharedDedup) Option {
	return func(o *options) { o.shared = d }
}

// sharedWait bounds a shared claim or release, so a slow database cannot
// hold up a reply for long.
const sharedWait = 5 * time.Second

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

// claimShared claims req's keys in the shared de-duplicator: false when
// another replica has or had the delivery. ok is true when there is none
// or it failed (logged).
func (b *Bot) claimShared(ctx context.Context, req *Request) (ok bool) {
	if b.shared == nil {
		return true
	}
	keys, _ := sharedKeys(req.dedup)
	ctx, cancel := context.WithTimeout(ctx, sharedWait)
	defer cancel()
	// Held for as long as handling may take, and a margin.
	won, err := b.shared.ClaimDeliveries(ctx, keys, b.cfg.RequestTimeout+time.Minute)
	if err != nil {
		b.log.Error("shared de-duplication failed; answering anyway", "source", req.Source.String(), "err", err)
		return true
	}
	return won
}

// finishShared records the outcome of a delivery claimed with claimShared.
func (b *Bot) finishShared(ctx context.Context, req *Request, handled bool) {
	if b.shared == nil {
		return
	}
	keys, keep := sharedKeys(req.dedup)
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), sharedWait)
	defer cancel()
	if err := b.shared.FinishDeliveries(ctx, keys, handled, keep); err != nil {
		b.log.Error("shared de-duplication: recording a delivery failed", "source", req.Source.String(), "err", err)
	}
}
