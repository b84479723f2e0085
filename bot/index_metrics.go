package bot

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Reload results for RecordReload and paperbot_reloads_total.
const (
	ReloadOK        = "ok"        // a new index is live
	ReloadUnchanged = "unchanged" // the corpus had not changed
	ReloadRefused   = "refused"   // it would have lost papers; the old index stays
	ReloadFailed    = "failed"    // unreadable files or a failed build; the old index stays
)

// indexMetrics exports the corpus size and how the last re-index went, so an
// alert can fire on a refused or failed reload instead of a log line.
type indexMetrics struct {
	reloads    *prometheus.CounterVec
	lastResult *prometheus.GaugeVec
	lastTime   prometheus.Gauge
}

func registerIndexMetrics(reg *prometheus.Registry, s Searcher) *indexMetrics {
	m := &indexMetrics{
		reloads: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "paperbot_reloads_total", Help: "Re-index attempts (SIGHUP), by result: ok, unchanged, refused, failed.",
		}, []string{"result"}),
		lastResult: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "paperbot_reload_last_result", Help: "1 for the result of the last re-index, 0 for the others.",
		}, []string{"result"}),
		lastTime: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "paperbot_reload_last_timestamp_seconds", Help: "When the last re-index finished (Unix time); 0 before the first.",
		}),
	}
	papers := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "paperbot_papers_indexed", Help: "Papers in the live index.",
	}, func() float64 { return float64(s.Stats().Papers) })
	reg.MustRegister(m.reloads, m.lastResult, m.lastTime, papers)
	return m
}

// RecordReload records the result of a re-index (one of the Reload
// constants) that finished at t. Safe for concurrent use.
func (b *Bot) RecordReload(result string, t time.Time) {
	m := b.index
	m.reloads.WithLabelValues(result).Inc()
	for _, r := range []string{ReloadOK, ReloadUnchanged, ReloadRefused, ReloadFailed} {
		v := 0.0
		if r == result {
			v = 1
		}
		m.lastResult.WithLabelValues(r).Set(v)
	}
	m.lastTime.Set(float64(t.UnixNano()) / 1e9)
}
