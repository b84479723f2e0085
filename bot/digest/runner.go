package digest

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/paperbot/paperbot/fault"
	"github.com/paperbot/paperbot/search"
)

// work takes one job as far as it can go at now.
func (s *Scheduler) work(ctx context.Context, now time.Time, j job) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.RunTimeout)
	defer cancel()
	st, log := s.cfg.Store, s.cfg.Log.With("run", j.key().String())
	if j.run != nil { // unfinished: left by a crash, a failed post or a failed search
		sub, err := st.Get(ctx, j.run.Key.SubscriptionID)
		var subp *Subscription
		if err == nil {
			subp = &sub
		} else if !errors.Is(err, fault.NotFound) {
			log.Error("digest: reading subscription", "err", err)
			return
		}
		s.advance(ctx, now, subp, *j.run, false)
		return
	}
	run, won, err := st.Claim(ctx, Run{Key: j.key(), ChannelID: j.sub.ChannelID, Scheduled: j.occ.At, ClaimedAt: now})
	if err != nil {
		log.Error("digest: claiming run", "err", err)
		return
	}
	if !won {
		return // another worker has it; an unfinished run is picked up next tick
	}
	if !j.latest {
		s.skip(ctx, now, run, "superseded by a later digest of the same subscription")
		return
	}
	s.advance(ctx, now, &j.sub, run, true)
}

// skip finishes a run that was missed beyond the grace period.
func (s *Scheduler) skip(ctx context.Context, now time.Time, run Run, reason string) {
	if err := s.cfg.Store.Finish(ctx, run.Key, Skipped, reason, now); err != nil {
		s.cfg.Log.Error("digest: recording skip", "run", run.Key.String(), "err", err)
		return
	}
	s.counts.skippedLate.Add(1)
	s.cfg.Log.Warn("digest skipped", "run", run.Key.String(), "channel", run.ChannelID,
		"scheduled", run.Scheduled, "late", now.Sub(run.Scheduled).Round(time.Second).String(), "reason", reason)
}

// advance moves a Claimed or Posting run towards Posted. sub is nil when the
// subscription was deleted. fresh is true when this call claimed the run, so
// nothing can have been posted for it yet.
func (s *Scheduler) advance(ctx context.Context, now time.Time, sub *Subscription, run Run, fresh bool) {
	st, log := s.cfg.Store, s.cfg.Log.With("run", run.Key.String(), "channel", run.ChannelID)
	late := now.Sub(run.Scheduled)
	if run.State == Posting && !fresh {
		// An earlier attempt may have posted before it died or timed out.
		ts, found, err := s.cfg.Poster.Find(ctx, run.ChannelID, run.Key)
		code, unpostable := unpostable(err)
		switch {
		case unpostable && sub != nil && !sub.Paused:
			s.pause(ctx, now, *sub, run, code)
			return
		case unpostable || (err != nil && late > s.cfg.Grace):
			s.counts.failed.Add(1)
			s.finish(ctx, now, run, Failed, "could not check whether it was posted: "+err.Error())
			return
		case err != nil:
			s.retry(ctx, now, run, fmt.Errorf("looking for an earlier post: %w", err))
			return
		}
		if found {
			if sub != nil && len(run.Papers) > 0 {
				if err := s.complete(ctx, now, *sub, run, ts); err != nil {
					if late <= s.cfg.Grace {
						s.retry(ctx, now, run, fmt.Errorf("finishing the digest's thread: %w", err))
						return
					}
					log.Error("digest: thread left incomplete beyond the grace period", "err", err)
				}
			}
			if err := st.MarkPosted(ctx, run.Key, ts, now); err != nil {
				log.Error("digest: recording recovered post", "err", err)
				return
			}
			s.counts.recovered.Add(1)
			log.Info("digest found already posted", "ts", ts)
			return
		}
	}
	switch {
	case sub == nil:
		s.finish(ctx, now, run, Skipped, "the subscription was deleted")
		return
	case sub.Paused:
		s.finish(ctx, now, run, Skipped, "the subscription is paused")
		return
	case late > s.cfg.Grace && run.State == Claimed:
		s.skip(ctx, now, run, fmt.Sprintf("missed by %s, beyond the %s grace period", late.Round(time.Minute), s.cfg.Grace))
		return
	case late > s.cfg.Grace:
		s.counts.failed.Add(1)
		s.finish(ctx, now, run, Failed, "not posted within the grace period: "+run.Reason)
		return
	}

	var papers []search.Result
	var lifted map[string]Lift
	var err error
	if run.State == Claimed {
		papers, lifted, err = choosePapers(ctx, s.cfg.Searcher, st, *sub, s.cfg.Papers, s.cfg.Fresh, s.cfg.Fresh.Since(*sub, run.Scheduled))
		if err != nil {
			log.Error("digest: choosing papers (retried next tick)", "err", err)
			return
		}
		if len(papers) == 0 && !s.cfg.PostNothingNew {
			s.counts.nothingNew.Add(1)
			s.finish(ctx, now, run, Skipped, "nothing new")
			return
		}
		ids := make([]string, len(papers))
		for i, p := range papers {
			ids[i] = p.ID
		}
		if err := st.Choose(ctx, run.Key, ids, now); err != nil {
			log.Error("digest: recording chosen papers", "err", err)
			return
		}
		run.State, run.Papers = Posting, ids
		if len(papers) == 0 {
			s.counts.nothingNew.Add(1)
		}
	} else if len(run.Papers) > 0 {
		if papers, err = resolvePapers(ctx, s.cfg.Searcher, *sub, run.Papers); err != nil {
			s.retry(ctx, now, run, err)
			return
		}
		if len(papers) == 0 {
			s.finish(ctx, now, run, Skipped, "its papers are no longer in the corpus")
			return
		}
	}

	d := s.digestOf(*sub, run, papers, late)
	d.Lifted = lifted // a retried post has lost why: its papers are the same
	ts, err := s.cfg.Poster.Post(ctx, d)
	if code, ok := unpostable(err); ok {
		s.pause(ctx, now, *sub, run, code)
		return
	}
	if err != nil {
		s.retry(ctx, now, run, err) // ErrIncomplete too: Find, then Complete
		return
	}
	if err := st.MarkPosted(ctx, run.Key, ts, now); err != nil {
		// The message exists; the next tick finds it (Poster.Find) and records it.
		log.Error("digest: recording post", "ts", ts, "err", err)
		return
	}
	s.counts.posted.Add(1)
	log.Info("digest posted", "ts", ts, "papers", len(papers), "late", late > s.cfg.LateAfter)
}

// digestOf is the digest a run posts; the same run always renders the same.
func (s *Scheduler) digestOf(sub Subscription, run Run, papers []search.Result, late time.Duration) Digest {
	return Digest{Key: run.Key, Subscription: sub, Scheduled: run.Scheduled, Late: late > s.cfg.LateAfter,
		Papers: papers, NothingNew: len(papers) == 0}
}

// complete finishes the thread of a digest found posted, in case the
// earlier attempt died (or failed) between its messages.
func (s *Scheduler) complete(ctx context.Context, now time.Time, sub Subscription, run Run, ts string) error {
	papers, err := resolvePapers(ctx, s.cfg.Searcher, sub, run.Papers)
	if err != nil || len(papers) == 0 {
		return err
	}
	return s.cfg.Poster.Complete(ctx, s.digestOf(sub, run, papers, now.Sub(run.Scheduled)), ts)
}

// retry records a failed attempt; the run stays Posting and the next tick
// tries again (looking for the post first) until the grace period ends.
func (s *Scheduler) retry(ctx context.Context, now time.Time, run Run, cause error) {
	if ctx.Err() != nil {
		return // shutting down: the next process resumes the run
	}
	s.counts.retries.Add(1)
	s.cfg.Log.Warn("digest post failed, will retry", "run", run.Key.String(), "err", cause)
	if run.State != Posting {
		return
	}
	if err := s.cfg.Store.Attempt(ctx, run.Key, cause.Error(), now); err != nil {
		s.cfg.Log.Error("digest: recording attempt", "run", run.Key.String(), "err", err)
	}
}

func (s *Scheduler) finish(ctx context.Context, now time.Time, run Run, state RunState, reason string) {
	if err := s.cfg.Store.Finish(ctx, run.Key, state, reason, now); err != nil {
		s.cfg.Log.Error("digest: finishing run", "run", run.Key.String(), "state", state, "err", err)
		return
	}
	s.cfg.Log.Info("digest run finished", "run", run.Key.String(), "state", state, "reason", reason)
}

// pause gives up a run whose channel cannot be posted to, pauses the
// subscription and tells its creator how to fix it.
func (s *Scheduler) pause(ctx context.Context, now time.Time, sub Subscription, run Run, code string) {
	s.counts.failed.Add(1)
	s.finish(ctx, now, run, Failed, code)
	if err := s.cfg.Store.Pause(ctx, sub.ID, PauseReason(code)); err != nil {
		s.cfg.Log.Error("digest: pausing subscription", "subscription", sub.ID, "err", err)
		return
	}
	s.counts.paused.Add(1)
	s.cfg.Log.Warn("digest subscription paused", "subscription", sub.ID, "channel", sub.ChannelID, "code", code)
	if err := s.cfg.Notifier.Notify(ctx, sub.CreatedBy, PauseNotice(sub, code)); err != nil {
		s.cfg.Log.Error("digest: telling the creator about the pause", "subscription", sub.ID, "user", sub.CreatedBy, "err", err)
	}
}
