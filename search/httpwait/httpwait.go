// Package httpwait is what paperbot's HTTP clients (the feeds' and the
// embeddings server's) share to wait politely: a sleep that ends with its
// context, and the Retry-After header. It uses the standard library only.
package httpwait

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Sleep waits for d or until ctx ends, whichever is first; a wait of zero
// or less only checks ctx.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// RetryAfter parses a Retry-After value, delay-seconds or an HTTP date
// (RFC 9110 section 10.2.3), against now. A date in the past means no
// wait; ok is false for no value, a malformed one, or one over a year.
func RetryAfter(v string, now time.Time) (d time.Duration, ok bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n < 0 || n > int64(365*24*time.Hour/time.Second) {
			return 0, false
		}
		return time.Duration(n) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return max(t.Sub(now), 0), true
}
