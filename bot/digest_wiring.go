package bot

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/paperbot/paperbot/bot/digest"
)

// Digests adds channel subscriptions and daily digests to a Bot: the
// subscribe, subscriptions, unsubscribe, resume and digest commands, their
// buttons, an App Home section, and the Slack side of the digest scheduler.
//
//	d := bot.NewDigests(store, index, digest.Config{})
//	b, _ := bot.New(cfg, index, log, d.Options()...)
//	sched, _ := d.Attach(b)   // poster and notifier from the bot's client
//	go sched.Run(ctx)          // after the bot connected (b.Run checks auth)
type Digests struct {
	store    digest.Store
	searcher digest.Searcher
	cfg      digest.Config
	now      func() time.Time

	bot   *Bot
	sched *digest.Scheduler
}

// NewDigests returns the digest feature over a store and an index. cfg's
// Store, Searcher, Poster and Notifier are filled in by Attach; its Now is
// also the clock of the commands (default time.Now).
func NewDigests(store digest.Store, searcher digest.Searcher, cfg digest.Config) *Digests {
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	return &Digests{store: store, searcher: searcher, cfg: cfg, now: now}
}

// Options registers the commands, buttons and App Home section with New.
func (d *Digests) Options() []Option {
	return []Option{WithCommands(d.commands()...), WithActions(d.actions()...), WithHomeBlocks(d.homeBlocks)}
}

// Attach builds the scheduler that posts through b. Call it once, after New.
func (d *Digests) Attach(b *Bot) (*digest.Scheduler, error) {
	if d.bot != nil {
		return nil, errors.New("digests: Attach called twice")
	}
	p := b.DigestPoster()
	cfg := d.cfg
	cfg.Store, cfg.Searcher, cfg.Poster, cfg.Notifier, cfg.Now = d.store, d.searcher, p, p, d.now
	if cfg.Log == nil {
		cfg.Log = b.Logger()
	}
	s, err := digest.New(cfg)
	if err != nil {
		return nil, err
	}
	if err := b.RegisterMetrics(digestMetrics(s)...); err != nil {
		return nil, fmt.Errorf("digests: metrics: %w", err)
	}
	d.bot, d.sched = b, s
	return s, nil
}

// papers is the digest size in force.
func (d *Digests) papers() int {
	if d.sched != nil {
		return d.sched.Config().Papers
	}
	if d.cfg.Papers > 0 {
		return d.cfg.Papers
	}
	return digest.DefaultPapers
}

// DigestDryRun renders, as readable text, what the channel's digests would
// post if they ran at now, without posting or recording anything. It is
// `paperbot digest --dry-run --channel ID`. fresh is the scheduler's.
func DigestDryRun(ctx context.Context, st digest.Store, srch digest.Searcher, channelID string, papers int, now time.Time, fresh digest.Fresh) (string, error) {
	if papers <= 0 {
		papers = digest.DefaultPapers
	}
	ds, err := digest.PreviewChannel(ctx, st, srch, channelID, papers, now, fresh)
	if err != nil {
		return "", err
	}
	if len(ds) == 0 {
		return fmt.Sprintf("Channel %s has no active subscriptions.\n", channelID), nil
	}
	var out string
	for _, dg := range ds {
		out += fmt.Sprintf("=== %s “%s” — %s; next run %s (%s) ===\n", dg.Subscription.ID, dg.Subscription.Topic,
			dg.Subscription.Schedule, dg.Scheduled.Format(time.RFC3339), dg.Key)
		for i, m := range RenderDigest(dg, "/paper") {
			if i > 0 {
				out += "--- in thread ---\n"
			}
			out += blocksText(m) + "\n"
		}
	}
	return out, nil
}
