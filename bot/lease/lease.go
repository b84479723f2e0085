// Package lease runs a job on one replica at a time: the fetcher and the
// digest scheduler, which would otherwise fetch and choose twice. The lease
// is a row with an expiry that its holder renews (a heartbeat); when the
// holder dies, the row expires and another replica takes over within TTL
// and one poll. A row rather than a session advisory lock: it needs no
// connection held for hours, and its expiry bounds failover even when the
// holder's connection hangs instead of closing.
package lease

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"
)

// Store keeps leases; pgstore.Store implements it.
type Store interface {
	// TryLease takes or renews the lease name for holder until ttl from
	// now, when it is free, expired or already holder's; false when another
	// holder has it.
	TryLease(ctx context.Context, name, holder string, ttl time.Duration) (bool, error)
	// ReleaseLease gives up holder's lease, so another replica need not
	// wait for it to expire.
	ReleaseLease(ctx context.Context, name, holder string) error
}

// TTL is how long a lease outlives its holder's last heartbeat. Holders
// renew every TTL/4 and stop their job when a renewal has not succeeded for
// 3/4 of TTL, before another replica may take it.
const TTL = 20 * time.Second

// Holder names this process in lease rows: host, process ID and a random
// part (two processes in one container may share both).
func Holder() string {
	host, _ := os.Hostname()
	b := make([]byte, 4)
	rand.Read(b)
	return fmt.Sprintf("%s/%d/%s", host, os.Getpid(), hex.EncodeToString(b))
}

// Runner runs jobs under leases in Store.
type Runner struct {
	Store  Store
	Holder string
	TTL    time.Duration // 0: TTL
	Log    *slog.Logger
}

func (r Runner) ttl() time.Duration {
	if r.TTL <= 0 {
		return TTL
	}
	return r.TTL
}

// Run runs job while holding the lease name, until ctx ends: it waits for
// the lease, starts job, renews the lease, and cancels job when the lease
// is lost (then waits for it again). It returns job's error when job fails
// while holding the lease, and nil when ctx ends (releasing the lease).
func (r Runner) Run(ctx context.Context, name string, job func(context.Context) error) error {
	ttl := r.ttl()
	beat := ttl / 4
	for {
		held, err := r.Store.TryLease(ctx, name, r.Holder, ttl)
		if err != nil && ctx.Err() == nil {
			r.Log.Warn("lease: asking for it failed; asking again", "lease", name, "err", err)
		}
		if held {
			r.Log.Info("lease taken: running here", "lease", name)
			lost, err := r.hold(ctx, name, job, ttl, beat)
			if ctx.Err() != nil {
				rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
				r.Store.ReleaseLease(rctx, name, r.Holder)
				cancel()
				return nil
			}
			if !lost {
				return err // the job ended (or failed) by itself
			}
			r.Log.Warn("lease lost: stopped here; another replica may run it", "lease", name)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(beat):
		}
	}
}

// errLost ends a job whose lease could not be renewed in time.
var errLost = errors.New("lease lost")

// hold runs job and renews the lease every beat; it returns lost when the
// lease was lost (job cancelled and finished), else job's outcome.
func (r Runner) hold(ctx context.Context, name string, job func(context.Context) error, ttl, beat time.Duration) (lost bool, err error) {
	jctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	done := make(chan error, 1)
	go func() { done <- job(jctx) }()
	renewed := time.Now()
	tick := time.NewTicker(beat)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			if errors.Is(context.Cause(jctx), errLost) {
				return true, nil
			}
			return false, err
		case <-tick.C:
			rctx, rcancel := context.WithTimeout(jctx, beat)
			held, err := r.Store.TryLease(rctx, name, r.Holder, ttl)
			rcancel()
			switch {
			case err == nil && held:
				renewed = time.Now()
			case err == nil:
				cancel(errLost) // another replica has it
			case time.Since(renewed) > ttl*3/4:
				r.Log.Warn("lease: renewing failed for too long; stopping before it expires", "lease", name, "err", err)
				cancel(errLost)
			default:
				r.Log.Warn("lease: renewing failed; trying again", "lease", name, "err", err)
			}
		}
	}
}
