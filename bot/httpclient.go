package bot

import (
	"log/slog"
	"net/http"
	"strings"
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
