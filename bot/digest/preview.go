package digest

import (
	"context"
	"time"
)

// Preview returns the digest sub would get if it ran at now, without
// claiming or recording anything: the papers no digest has posted to its
// channel yet, keyed to its next scheduled day.
func (s *Scheduler) Preview(ctx context.Context, sub Subscription, now time.Time) (Digest, error) {
	papers, err := choosePapers(ctx, s.cfg.Searcher, s.cfg.Store, sub, s.cfg.Papers)
	if err != nil {
		return Digest{}, err
	}
	next := sub.Schedule.Next(now)
	return Digest{
		Key: RunKey{sub.ID, DateOf(next)}, Subscription: sub, Scheduled: next,
		Papers: papers, NothingNew: len(papers) == 0,
	}, nil
}

// PreviewChannel previews every active subscription of a channel, oldest
// first. It is what `paperbot digest --dry-run --channel ID` prints.
func (s *Scheduler) PreviewChannel(ctx context.Context, channelID string, now time.Time) ([]Digest, error) {
	subs, err := s.cfg.Store.ByChannel(ctx, channelID)
	if err != nil {
		return nil, err
	}
	var out []Digest
	for _, sub := range subs {
		if sub.Paused {
			continue
		}
		d, err := s.Preview(ctx, sub, now)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}
