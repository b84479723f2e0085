package bot

import (
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/slack-go/slack"
)

// countingDoer sits under slack-go's retry wrapper and counts the 429
// responses it is about to wait out.
type countingDoer struct {
	client *http.Client
	m      *metrics
}

func (d countingDoer) Do(req *http.Request) (*http.Response, error) {
	resp, err := d.client.Do(req)
	if err == nil && resp.StatusCode == http.StatusTooManyRequests {
		d.m.rateLimitWaits.Inc()
	}
	return resp, err
}

// slackLogger routes slack-go's internal logging to slog at debug level; its
// lines can carry payloads, so they never reach info.
type slackLogger struct{ log *slog.Logger }

func (l slackLogger) Output(_ int, s string) error {
	l.log.Debug(strings.TrimSpace(s), "component", "slack-go")
	return nil
}

// maxRetries is how often a rate-limited Web API call is retried.
const maxRetries = 3

// retryOption makes slack-go retry 429s up to maxRetries times, waiting
// Retry-After plus jitter, or what wait makes of it when wait is set.
func retryOption(wait func(retryAfter time.Duration) time.Duration) slack.Option {
	if wait == nil {
		return slack.OptionRetry(maxRetries)
	}
	cfg := slack.DefaultRetryConfig()
	cfg.MaxRetries = maxRetries
	cfg.RetryAfterJitter = 0
	cfg.Handlers = []slack.RetryHandler{retryWaitHandler{slack.NewRateLimitErrorRetryHandler(cfg), wait}}
	return slack.OptionRetryConfig(cfg)
}

// retryWaitHandler is slack-go's 429 handler with the wait replaced.
type retryWaitHandler struct {
	slack.RetryHandler
	wait func(retryAfter time.Duration) time.Duration
}

func (h retryWaitHandler) ShouldRetry(state *slack.RetryState, req *http.Request, resp *http.Response, err error) (bool, time.Duration) {
	retry, d := h.RetryHandler.ShouldRetry(state, req, resp, err)
	if !retry {
		return false, 0
	}
	return true, h.wait(d)
}
