package digest

import (
	"context"
	"time"
)

// Preview returns the digest sub would get if it ran at now, without
// claiming or recording anything: up to n papers no digest has posted to its
// channel yet, keyed to its next scheduled day. It needs no Poster, so
// operators' dry runs and the /paper digest command can call it directly.
// With fresh on, the papers are those that arrived since the previous run.
func Preview(ctx context.Context, st Store, srch Searcher, sub Subscription, n int, now time.Time, fresh Fresh) (Digest, error) {
	next := sub.Schedule.Next(now)
	papers, lifted, err := choosePapers(ctx, srch, st, sub, n, fresh, fresh.Since(sub, next))
	if err != nil {
		return Digest{}, err
	}
	return Digest{
		Key: RunKey{sub.ID, DateOf(next)}, Subscription: sub, Scheduled: next,
		Papers: papers, NothingNew: len(papers) == 0, Lifted: lifted,
	}, nil
}

// PreviewChannel previews every active subscription of a channel, oldest
// first. It is what `paperbot digest --dry-run --channel ID` prints.
func PreviewChannel(ctx context.Context, st Store, srch Searcher, channelID string, n int, now time.Time, fresh Fresh) ([]Digest, error) {
	subs, err := st.ByChannel(ctx, channelID)
	if err != nil {
		return nil, err
	}
	var out []Digest
	for _, sub := range subs {
		if sub.Paused {
			continue
		}
		d, err := Preview(ctx, st, srch, sub, n, now, fresh)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// Preview is the package-level Preview with the scheduler's store, searcher
// and digest size.
func (s *Scheduler) Preview(ctx context.Context, sub Subscription, now time.Time) (Digest, error) {
	return Preview(ctx, s.cfg.Store, s.cfg.Searcher, sub, s.cfg.Papers, now, s.cfg.Fresh)
}

// PreviewChannel is the package-level PreviewChannel with the scheduler's
// store, searcher and digest size.
func (s *Scheduler) PreviewChannel(ctx context.Context, channelID string, now time.Time) ([]Digest, error) {
	return PreviewChannel(ctx, s.cfg.Store, s.cfg.Searcher, channelID, s.cfg.Papers, now, s.cfg.Fresh)
}
