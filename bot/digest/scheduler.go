package digest

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/paperbot/paperbot/fault"
)

// Scheduler posts each subscription's digest once per scheduled day. Tick
// does one round of work for a given instant; Run calls it on a timer with
// the configured clock. Safe for concurrent use.
type Scheduler struct {
	cfg    Config
	counts counters

	mu       sync.Mutex
	inflight map[RunKey]bool        // runs being worked on by this process
	channels map[string]*sync.Mutex // held while a run of the channel chooses and posts
}

// New checks cfg, fills its defaults and returns a Scheduler.
func New(cfg Config) (*Scheduler, error) {
	if err := cfg.setDefaults(); err != nil {
		return nil, err
	}
	return &Scheduler{cfg: cfg, inflight: map[RunKey]bool{}, channels: map[string]*sync.Mutex{}}, nil
}

// Config returns the configuration in force, defaults filled in.
func (s *Scheduler) Config() Config { return s.cfg }

// Counts returns the running totals.
func (s *Scheduler) Counts() Counts { return s.counts.snapshot() }

// Run ticks at once (which also finishes runs an earlier process left
// unfinished) and then every Interval, until ctx is cancelled; it returns
// after the tick in progress ends. Runs cut short by the cancellation stay
// claimed or posting in the store and are completed, without a second post,
// by the next process's first tick.
func (s *Scheduler) Run(ctx context.Context) error {
	t := time.NewTicker(s.cfg.Interval)
	defer t.Stop()
	for {
		if err := s.guard("tick", func() error { return s.Tick(ctx, s.cfg.Now()) }); err != nil && ctx.Err() == nil {
			s.cfg.Log.Error("digest tick failed", "err", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// job is one run to work on: a scheduled occurrence not yet in the run log,
// or an unfinished run from the log.
type job struct {
	sub    Subscription
	occ    Occurrence
	latest bool // the subscription's most recent occurrence (older ones are superseded)
	run    *Run // set for unfinished runs
}

func (j job) key() RunKey {
	if j.run != nil {
		return j.run.Key
	}
	return RunKey{j.sub.ID, j.occ.Day}
}

func (j job) channel() string {
	if j.run != nil {
		return j.run.ChannelID
	}
	return j.sub.ChannelID
}

func (j job) scheduled() time.Time {
	if j.run != nil {
		return j.run.Scheduled
	}
	return j.occ.At
}

// Tick does the work due at now: it finishes unfinished runs and starts every
// run scheduled at or before now that the log does not have yet, and returns
// when they are done. Channels are worked on at most Concurrency at a time;
// the runs of one channel go one after another, so two subscriptions of a
// channel never pick the same paper. Runs in progress in
// this process (an overlapping Tick) are left alone. Per-run failures, and
// panics, are logged and counted, not returned; the error is for failures to
// read the store at all.
func (s *Scheduler) Tick(ctx context.Context, now time.Time) error {
	var jobs []job
	err := s.guard("collecting due runs", func() (err error) {
		jobs, err = s.collect(ctx, now)
		return err
	})
	defer func() {
		s.mu.Lock()
		for _, j := range jobs {
			delete(s.inflight, j.key())
		}
		s.mu.Unlock()
	}()
	var order []string
	byChannel := map[string][]job{}
	for _, j := range jobs {
		ch := j.channel()
		if byChannel[ch] == nil {
			order = append(order, ch)
		}
		byChannel[ch] = append(byChannel[ch], j)
	}
	sem := make(chan struct{}, s.cfg.Concurrency)
	var wg sync.WaitGroup
	for _, ch := range order {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			mu := s.channelLock(ch)
			mu.Lock()
			defer mu.Unlock()
			for _, j := range byChannel[ch] {
				// Logged and counted by guard; the channel's other runs go on.
				_ = s.guard("run", func() error { s.work(ctx, now, j); return nil }, "run", j.key().String())
			}
		})
	}
	wg.Wait()
	return err
}

// channelLock returns the mutex serialising a channel's runs across
// overlapping ticks.
func (s *Scheduler) channelLock(ch string) *sync.Mutex {
	s.mu.Lock()
	defer s.mu.Unlock()
	mu, ok := s.channels[ch]
	if !ok {
		mu = &sync.Mutex{}
		s.channels[ch] = mu
	}
	return mu
}

// lookback is how far before now Tick looks for runs missing from the log:
// far enough to log and count the skip of every day missed in a long outage.
func (s *Scheduler) lookback() time.Duration { return s.cfg.Grace + 8*24*time.Hour }

// collect lists the jobs due at now and marks them in flight.
func (s *Scheduler) collect(ctx context.Context, now time.Time) ([]job, error) {
	unfinished, err := s.cfg.Store.Unfinished(ctx)
	if err != nil {
		return nil, err
	}
	subs, err := s.cfg.Store.Active(ctx)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var jobs []job
	defer func() {
		if p := recover(); p != nil { // Tick never sees these jobs: do not leave them marked in flight
			for _, j := range jobs {
				delete(s.inflight, j.key())
			}
			panic(p)
		}
	}()
	add := func(j job) {
		if !s.inflight[j.key()] {
			s.inflight[j.key()] = true
			jobs = append(jobs, j)
		}
	}
	open := map[RunKey]bool{}
	var errs []error
	for _, r := range unfinished {
		open[r.Key] = true
		add(job{run: &r})
	}
	for _, sub := range subs {
		// A panic reading one subscription's runs is logged and counted by
		// guard; the other subscriptions are still collected.
		var err error
		_ = s.guard("collecting due runs", func() error { err = s.collectSub(ctx, now, sub, open, add); return nil }, "subscription", sub.ID)
		if err != nil {
			errs = append(errs, err)
		}
	}
	slices.SortFunc(jobs, func(a, b job) int {
		return cmp.Or(a.scheduled().Compare(b.scheduled()), cmp.Compare(a.key().String(), b.key().String()))
	})
	return jobs, errors.Join(errs...)
}

// collectSub adds sub's runs due at now that the log does not have yet.
func (s *Scheduler) collectSub(ctx context.Context, now time.Time, sub Subscription, open map[RunKey]bool, add func(job)) error {
	from := sub.activeSince()
	if min := now.Add(-s.lookback()); from.Before(min) {
		from = min
	}
	occs := sub.Schedule.Between(from, now)
	// Newest first, stopping at the first day the log has: when that
	// run was started, every older day in the window was handled too.
	for i := len(occs) - 1; i >= 0; i-- {
		key := RunKey{sub.ID, occs[i].Day}
		if open[key] {
			return nil
		}
		_, err := s.cfg.Store.GetRun(ctx, key)
		if err == nil {
			return nil
		}
		if !errors.Is(err, fault.NotFound) {
			return err
		}
		add(job{sub: sub, occ: occs[i], latest: i == len(occs)-1})
	}
	return nil
}
