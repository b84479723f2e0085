package bot

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// metrics holds the bot's Prometheus collectors, registered on the bot's
// own registry (no global state).
type metrics struct {
	registry       *prometheus.Registry
	envelopes      *prometheus.CounterVec   // by envelope type
	ackLatency     prometheus.Histogram     // envelope read to ack queued
	replyLatency   *prometheus.HistogramVec // envelope read to reply delivered, by source
	searchLatency  *prometheus.HistogramVec // by operation
	errors         *prometheus.CounterVec   // by kind
	reconnects     prometheus.Counter
	rateLimitWaits prometheus.Counter
	duplicates     *prometheus.CounterVec   // by what was de-duplicated
	shared         *prometheus.HistogramVec // shared de-duplicator calls that succeeded, by op
	inFlight       prometheus.Gauge
}

func newMetrics() *metrics {
	fast := []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 3}
	slow := []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}
	m := &metrics{
		registry: prometheus.NewRegistry(),
		envelopes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "paperbot_envelopes_total", Help: "Socket Mode envelopes received, by type.",
		}, []string{"type"}),
		ackLatency: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "paperbot_ack_seconds", Help: "Time from reading an envelope to queueing its ack.", Buckets: fast,
		}),
		replyLatency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "paperbot_reply_seconds", Help: "Time from reading an envelope to its reply being accepted by Slack.", Buckets: slow,
		}, []string{"source"}),
		searchLatency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "paperbot_search_seconds", Help: "Index call latency, by operation.", Buckets: fast,
		}, []string{"op"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "paperbot_errors_total", Help: "Errors, by kind (invalid, not found, internal, slack, render, ack, database).",
		}, []string{"kind"}),
		reconnects: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "paperbot_reconnects_total", Help: "Socket Mode reconnections after the first connection.",
		}),
		rateLimitWaits: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "paperbot_rate_limit_waits_total", Help: "HTTP 429 responses from Slack that were waited out.",
		}),
		duplicates: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "paperbot_duplicates_total", Help: "Deliveries dropped as duplicates, by source.",
		}, []string{"source"}),
		shared: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "paperbot_shared_dedup_seconds", Help: "Latency of the replicas' shared de-duplication (the database), by op: claim or record. Failed calls count as errors of kind database.",
			Buckets: []float64{.00025, .0005, .001, .002, .004, .008, .016, .032, .064, .128, .256, .512, 1, 2, 5},
		}, []string{"op"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "paperbot_requests_in_flight", Help: "Requests queued or being handled.",
		}),
	}
	m.registry.MustRegister(m.envelopes, m.ackLatency, m.replyLatency, m.searchLatency, m.errors,
		m.reconnects, m.rateLimitWaits, m.duplicates, m.shared, m.inFlight,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

func since(t time.Time) float64 { return time.Since(t).Seconds() }
