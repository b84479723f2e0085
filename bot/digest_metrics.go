package bot

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/paperbot/paperbot/bot/digest"
)

// digestMetrics are the scheduler's counts for the bot's /metrics:
// paperbot_digest_runs_total by outcome, paused subscriptions, retried posts
// and recovered panics.
func digestMetrics(s *digest.Scheduler) []prometheus.Collector {
	runs := map[string]func(digest.Counts) int64{
		"posted":       func(c digest.Counts) int64 { return c.Posted },
		"recovered":    func(c digest.Counts) int64 { return c.Recovered },
		"nothing_new":  func(c digest.Counts) int64 { return c.NothingNew },
		"skipped_late": func(c digest.Counts) int64 { return c.SkippedLate },
		"failed":       func(c digest.Counts) int64 { return c.Failed },
	}
	var cs []prometheus.Collector
	for outcome, f := range runs {
		cs = append(cs, prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "paperbot_digest_runs_total", Help: "Digest runs finished, by outcome (skipped_late: missed beyond the grace period).",
			ConstLabels: prometheus.Labels{"outcome": outcome},
		}, func() float64 { return float64(f(s.Counts())) }))
	}
	cs = append(cs,
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "paperbot_digest_paused_total",
			Help: "Subscriptions paused because their channel could not be posted to."},
			func() float64 { return float64(s.Counts().Paused) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "paperbot_digest_panics_total",
			Help: "Panics recovered in the digest scheduler (each logged with its stack); the bot keeps answering."},
			func() float64 { return float64(s.Counts().Panics) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "paperbot_digest_retries_total",
			Help: "Digest posts that failed and will be retried."},
			func() float64 { return float64(s.Counts().Retries) }),
	)
	return cs
}
