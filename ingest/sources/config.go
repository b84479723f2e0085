package sources

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/paperbot/paperbot/search/httpwait"
)

// Public service endpoints, the defaults of Config.
const (
	DefaultRSSURL        = "https://rss.arxiv.org/rss"
	DefaultOAIURL        = "https://oaipmh.arxiv.org/oai"
	DefaultAPIURL        = "https://export.arxiv.org/api/query"
	DefaultOpenReviewURL = "https://api2.openreview.net"
)

// Config configures a Client. Contact is required; every other zero field
// takes the default its comment names.
type Config struct {
	// Contact is an e-mail address or URL where the services' operators can
	// reach whoever runs this bot; it goes into the User-Agent, as arXiv asks.
	Contact string
	// Product names the software in the User-Agent; default "paperbot".
	Product string

	// Base URLs of the services; defaults are the public ones. Mirrors and
	// tests point them elsewhere.
	RSSURL, OAIURL, APIURL, OpenReviewURL string

	// OpenReviewToken, when set, is sent as a bearer token to OpenReview
	// only. OpenReview answers anonymous clients with a browser check.
	OpenReviewToken string

	// MinInterval is the least time between the end of one request and the
	// start of the next to the same site; default 3 s, arXiv's rule;
	// negative for none. A site is the host's last two labels, so
	// export.arxiv.org, rss.arxiv.org and oaipmh.arxiv.org share one budget.
	MinInterval time.Duration
	// MaxRetries bounds how often a 503 or 429 answer is retried after
	// waiting for its Retry-After; default 3, negative for none.
	MaxRetries int
	// RetryWait is the wait after a 503 or 429 that sends no usable
	// Retry-After; default 30 s.
	RetryWait time.Duration
	// MaxWait is the longest Retry-After honoured; a longer one fails the
	// request at once (with the wait in the *HTTPError) instead of blocking a
	// caller for hours. Default 10 min.
	MaxWait time.Duration
	// Timeout bounds each request, body included; default 2 min.
	Timeout time.Duration
	// MaxBody bounds a response body; default 64 MiB.
	MaxBody int64

	// HTTPClient sends the requests; default a client without timeout (Timeout
	// applies through the request context).
	HTTPClient *http.Client
	// Now and Sleep are the clock; tests inject a fake one so that waits take
	// no time. Sleep must return ctx.Err() when ctx ends first.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
}

// withDefaults validates c and fills in defaults.
func (c Config) withDefaults() (Config, error) {
	c.Contact = strings.TrimSpace(c.Contact)
	if c.Contact == "" {
		return c, errors.New("sources: a contact (e-mail or URL) is required for the User-Agent")
	}
	if strings.ContainsAny(c.Contact, "()\r\n") {
		return c, errors.New("sources: contact must not contain parentheses or line breaks")
	}
	if c.Product == "" {
		c.Product = "paperbot"
	}
	for _, u := range []struct {
		p   *string
		def string
	}{{&c.RSSURL, DefaultRSSURL}, {&c.OAIURL, DefaultOAIURL}, {&c.APIURL, DefaultAPIURL}, {&c.OpenReviewURL, DefaultOpenReviewURL}} {
		if *u.p == "" {
			*u.p = u.def
		}
		*u.p = strings.TrimRight(*u.p, "/")
		pu, err := url.Parse(*u.p)
		if err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.Host == "" {
			return c, errors.New("sources: base URL " + *u.p + " is not an http(s) URL")
		}
	}
	if c.MinInterval == 0 {
		c.MinInterval = 3 * time.Second
	}
	switch {
	case c.MaxRetries == 0:
		c.MaxRetries = 3
	case c.MaxRetries < 0:
		c.MaxRetries = 0
	}
	if c.RetryWait <= 0 {
		c.RetryWait = 30 * time.Second
	}
	if c.MaxWait <= 0 {
		c.MaxWait = 10 * time.Minute
	}
	if c.Timeout <= 0 {
		c.Timeout = 2 * time.Minute
	}
	if c.MaxBody <= 0 {
		c.MaxBody = 64 << 20
	}
	if c.HTTPClient == nil {
		c.HTTPClient = &http.Client{}
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Sleep == nil {
		c.Sleep = httpwait.Sleep
	}
	return c, nil
}

// userAgent is descriptive, as arXiv's API terms ask: product and a way to
// reach the operator.
func (c Config) userAgent() string {
	contact := c.Contact
	if strings.Contains(contact, "@") && !strings.Contains(contact, ":") {
		contact = "mailto:" + contact
	}
	return c.Product + " (+https://github.com/paperbot/paperbot; " + contact + ")"
}
