package sources

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/paperbot/paperbot/search/httpwait"
)

// Client fetches from arXiv and OpenReview politely: one request at a time
// (concurrent calls queue), at least Config.MinInterval apart per site, 503
// and 429 retried after their Retry-After a bounded number of times. It is
// safe for concurrent use; build it with NewClient.
type Client struct {
	cfg Config
	ua  string

	// turn holds one token: whoever has it may talk to a service. It is
	// held for a whole request, retries included, and waiting for it ends
	// with the caller's context.
	turn chan struct{}
	last map[string]time.Time // by site (see site); guarded by turn
}

// NewClient returns a Client for cfg, or an error naming what is wrong with
// cfg (a missing contact, a base URL that is not http(s)).
func NewClient(cfg Config) (*Client, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	c := &Client{cfg: cfg, ua: cfg.userAgent(), turn: make(chan struct{}, 1), last: map[string]time.Time{}}
	return c, nil
}

// UserAgent is the User-Agent the client sends.
func (c *Client) UserAgent() string { return c.ua }

// get fetches rawURL and returns its body. A non-2xx answer is an
// *HTTPError (after retrying 503 and 429); an HTML page where accept names
// another type, a body shorter than its Content-Length or cut off mid-way,
// and a body over MaxBody are errors. Context cancellation and Timeout end
// the wait or the request with an error wrapping the context's error.
func (c *Client) get(ctx context.Context, rawURL, accept string) ([]byte, error) {
	return c.getAuth(ctx, rawURL, accept, "")
}

// getAuth is get with an Authorization header, when auth is not "".
func (c *Client) getAuth(ctx context.Context, rawURL, accept, auth string) ([]byte, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", rawURL, err)
	}
	select {
	case c.turn <- struct{}{}:
		defer func() { <-c.turn }()
	case <-ctx.Done():
		return nil, fmt.Errorf("GET %s: waiting for an earlier request: %w", rawURL, ctx.Err())
	}
	for attempt := 0; ; attempt++ {
		if err := c.waitTurn(ctx, site(u.Hostname())); err != nil {
			return nil, fmt.Errorf("GET %s: %w", rawURL, err)
		}
		body, resp, err := c.do(ctx, rawURL, accept, auth)
		c.last[site(u.Hostname())] = c.cfg.Now()
		if err != nil {
			return nil, fmt.Errorf("GET %s: %w", rawURL, err)
		}
		if resp.StatusCode == http.StatusServiceUnavailable || resp.StatusCode == http.StatusTooManyRequests {
			wait, ok := httpwait.RetryAfter(resp.Header.Get("Retry-After"), c.cfg.Now())
			if !ok {
				wait = c.cfg.RetryWait
			}
			if attempt >= c.cfg.MaxRetries || wait > c.cfg.MaxWait {
				return nil, &HTTPError{URL: rawURL, Status: resp.StatusCode, RetryAfter: wait, Body: head(body)}
			}
			if err := c.sleep(ctx, wait); err != nil {
				return nil, fmt.Errorf("GET %s: waiting %v to retry: %w", rawURL, wait, err)
			}
			continue
		}
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			return nil, &HTTPError{URL: rawURL, Status: resp.StatusCode, Body: head(body)}
		}
		if isHTML(resp.Header.Get("Content-Type")) && !strings.Contains(accept, "html") {
			return nil, fmt.Errorf("GET %s: got an HTML page (status %d): %w", rawURL, resp.StatusCode, ErrUnexpectedContent)
		}
		return body, nil
	}
}

// site is what pacing is counted per: the last two labels of a host name
// (arxiv.org for all of arXiv's services), or the whole host for an IP
// address or a one-label name.
func site(host string) string {
	if net.ParseIP(host) != nil {
		return host
	}
	labels := strings.Split(strings.TrimSuffix(host, "."), ".")
	if len(labels) <= 2 {
		return host
	}
	return strings.Join(labels[len(labels)-2:], ".")
}

// waitTurn sleeps until MinInterval has passed since the last request to
// the site.
func (c *Client) waitTurn(ctx context.Context, site string) error {
	last, ok := c.last[site]
	if !ok {
		return ctx.Err()
	}
	if wait := last.Add(c.cfg.MinInterval).Sub(c.cfg.Now()); wait > 0 {
		return c.sleep(ctx, wait)
	}
	return ctx.Err()
}

// sleep waits d on the configured clock; a wait of zero or less only checks
// ctx.
func (c *Client) sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	return c.cfg.Sleep(ctx, d)
}

// do sends one request and reads the whole body within Timeout.
func (c *Client) do(ctx context.Context, rawURL, accept, auth string) ([]byte, *http.Response, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("User-Agent", c.ua)
	req.Header.Set("Accept", accept)
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := c.cfg.HTTPClient.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, c.cfg.MaxBody+1))
	switch {
	case err != nil && ctx.Err() != nil:
		return nil, nil, fmt.Errorf("reading body: %w", ctx.Err())
	case err != nil && errors.Is(err, io.ErrUnexpectedEOF):
		return nil, nil, fmt.Errorf("after %d bytes: %w: %v", len(body), ErrTruncated, err)
	case err != nil:
		return nil, nil, fmt.Errorf("reading body: %w", err)
	case int64(len(body)) > c.cfg.MaxBody:
		return nil, nil, fmt.Errorf("body larger than %d bytes", c.cfg.MaxBody)
	case resp.ContentLength >= 0 && int64(len(body)) != resp.ContentLength:
		return nil, nil, fmt.Errorf("%d of %d bytes: %w", len(body), resp.ContentLength, ErrTruncated)
	}
	return body, resp, nil
}

func isHTML(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && (mt == "text/html" || mt == "application/xhtml+xml")
}

// head keeps the start of an error body, enough for error feeds and JSON
// error objects.
func head(b []byte) []byte {
	const n = 16 << 10
	if len(b) > n {
		b = b[:n]
	}
	return b
}
