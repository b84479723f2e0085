package digest

import "sync/atomic"

// Counts are the Scheduler's running totals since it started, for metrics.
type Counts struct {
	Posted      int64 // digests posted
	Recovered   int64 // interrupted runs found already posted (Poster.Find) and recorded
	NothingNew  int64 // runs with no new papers (silent, or the one-line message)
	SkippedLate int64 // missed runs skipped because they were beyond the grace period
	Failed      int64 // runs given up: unpostable channel, or retries until the grace period ended
	Paused      int64 // subscriptions paused because their channel could not be posted to
	Retries     int64 // failed posts that will be retried
	Panics      int64 // panics recovered in ticks and runs (each one logged with its stack)
}

type counters struct {
	posted, recovered, nothingNew, skippedLate, failed, paused, retries, panics atomic.Int64
}

func (c *counters) snapshot() Counts {
	return Counts{
		Posted: c.posted.Load(), Recovered: c.recovered.Load(), NothingNew: c.nothingNew.Load(),
		SkippedLate: c.skippedLate.Load(), Failed: c.failed.Load(), Paused: c.paused.Load(),
		Retries: c.retries.Load(), Panics: c.panics.Load(),
	}
}
