package bot

import (
	"fmt"
	"net/http"

	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Handler serves the bot's operational endpoints:
//
//	/healthz  200 while the process is up
//	/readyz   200 when the Socket Mode connection is up and the index is
//	          loaded, 503 with the reason otherwise
//	/metrics  Prometheus metrics from the bot's own registry
//
// It is safe for concurrent use and may be served before Run starts.
func (b *Bot) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if reason := b.notReady(); reason != "" {
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprintln(w, "not ready:", reason)
			return
		}
		fmt.Fprintln(w, "ready")
	})
	mux.Handle("GET /metrics", promhttp.HandlerFor(b.metrics.registry, promhttp.HandlerOpts{}))
	return mux
}

// Ready reports whether the bot is connected to Slack and its index is loaded.
func (b *Bot) Ready() bool { return b.notReady() == "" }

// notReady says why the bot is not ready, or "" when it is.
func (b *Bot) notReady() string {
	if !b.indexReady() {
		return "index not loaded"
	}
	if !b.connected.Load() {
		return "not connected to Slack"
	}
	return ""
}

// indexReady asks the searcher when it can tell (an optional Ready method);
// a searcher handed to New is otherwise taken as loaded.
func (b *Bot) indexReady() bool {
	if r, ok := b.searcher.(interface{ Ready() bool }); ok {
		return r.Ready()
	}
	return b.searcher != nil
}
