package digest

import (
	"errors"
	"io"
	"log/slog"
	"time"
)

// Config wires a Scheduler. Store, Searcher, Poster and Notifier are
// required; every other zero field takes the default named in its comment.
type Config struct {
	Store    Store
	Searcher Searcher
	Poster   Poster
	Notifier Notifier

	Now func() time.Time // the clock Run reads; default time.Now
	Log *slog.Logger     // default: discard

	// Grace is how late a missed digest may still be posted (default 6h);
	// later ones are skipped, logged and counted.
	Grace time.Duration
	// LateAfter marks a digest posted this long after its time as a catch-up
	// whose message names the day it covers (default 10m).
	LateAfter time.Duration
	// Papers is the most papers in one digest (default 5).
	Papers int
	// Concurrency bounds the runs posted at once (default 4).
	Concurrency int
	// PostNothingNew posts a one-line "nothing new today" instead of
	// staying silent when a topic has no new papers (default false).
	PostNothingNew bool
	// Fresh, when on, limits digests to papers that arrived from the
	// followed sources since the previous digest.
	Fresh Fresh
	// Interval is how often Run ticks (default 30s).
	Interval time.Duration
	// RunTimeout bounds one run's search and post (default 2m).
	RunTimeout time.Duration
}

// Defaults of Config.
const (
	DefaultGrace       = 6 * time.Hour
	DefaultLateAfter   = 10 * time.Minute
	DefaultPapers      = 5
	DefaultConcurrency = 4
	DefaultInterval    = 30 * time.Second
	DefaultRunTimeout  = 2 * time.Minute
	// MaxPapers bounds Config.Papers (and PAPERBOT_DIGEST_SIZE): a digest
	// is a short read.
	MaxPapers = 20
)

func (c *Config) setDefaults() error {
	if c.Store == nil || c.Searcher == nil || c.Poster == nil || c.Notifier == nil {
		return errors.New("digest: Config needs Store, Searcher, Poster and Notifier")
	}
	if c.Papers < 0 || c.Papers > MaxPapers {
		return invalidf("digest: Papers must be between 1 and %d, not %d", MaxPapers, c.Papers)
	}
	if c.Fresh.NewDays < 0 || c.Fresh.NewDays > MaxNewDays {
		return invalidf("digest: NewDays must be between 1 and %d, not %d", MaxNewDays, c.Fresh.NewDays)
	}
	if c.Grace < 0 || c.LateAfter < 0 || c.Concurrency < 0 || c.Interval < 0 || c.RunTimeout < 0 {
		return invalidf("digest: durations and counts in Config cannot be negative")
	}
	def := func(v *time.Duration, d time.Duration) {
		if *v == 0 {
			*v = d
		}
	}
	def(&c.Grace, DefaultGrace)
	def(&c.LateAfter, DefaultLateAfter)
	def(&c.Interval, DefaultInterval)
	def(&c.RunTimeout, DefaultRunTimeout)
	if c.Papers == 0 {
		c.Papers = DefaultPapers
	}
	if c.Concurrency == 0 {
		c.Concurrency = DefaultConcurrency
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Log == nil {
		c.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return nil
}
