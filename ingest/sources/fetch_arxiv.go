package sources

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
)

// categoryRe matches an arXiv category or archive: cs.LG, stat.ML, hep-ex,
// math.GT, physics.plasm-ph.
var categoryRe = regexp.MustCompile(`^[a-z][a-z-]*(\.[A-Za-z-]+)?$`)

// ValidCategory reports whether s has the form of an arXiv category.
func ValidCategory(s string) bool { return categoryRe.MatchString(s) }

// ArXivRSS fetches today's announcement feed of the given categories, one
// request for all of them (arXiv combines them with "+"). A category that is
// not of the form of one is an error before any request.
func (c *Client) ArXivRSS(ctx context.Context, categories []string) (Feed, error) {
	if len(categories) == 0 {
		return Feed{}, errors.New("arxiv rss: no categories")
	}
	for _, cat := range categories {
		if !ValidCategory(cat) {
			return Feed{}, fmt.Errorf("arxiv rss: %q is not an arXiv category", cat)
		}
	}
	body, err := c.get(ctx, c.cfg.RSSURL+"/"+strings.Join(categories, "+"), "application/rss+xml, application/xml;q=0.9")
	if err != nil {
		return Feed{}, fmt.Errorf("arxiv rss: %w", err)
	}
	f, err := ParseRSS(body)
	if err != nil {
		return Feed{}, fmt.Errorf("arxiv rss: %w", err)
	}
	return f, nil
}

// ArXivQuery runs a query API request with the given parameters
// (search_query, id_list, start, max_results, sortBy, sortOrder). A bad
// query comes back as an *APIError carrying arXiv's message, whether arXiv
// answered 200 (old service) or 400 (2026 service).
func (c *Client) ArXivQuery(ctx context.Context, params url.Values) (AtomFeed, error) {
	body, err := c.get(ctx, c.cfg.APIURL+"?"+params.Encode(), "application/atom+xml, application/xml;q=0.9")
	var he *HTTPError
	if errors.As(err, &he) && he.Status == http.StatusBadRequest {
		if _, perr := ParseAtom(he.Body); perr != nil {
			var ae *APIError
			if errors.As(perr, &ae) {
				return AtomFeed{}, fmt.Errorf("arxiv api: %w", ae)
			}
		}
	}
	if err != nil {
		return AtomFeed{}, fmt.Errorf("arxiv api: %w", err)
	}
	f, err := ParseAtom(body)
	if err != nil {
		return AtomFeed{}, fmt.Errorf("arxiv api: %w", err)
	}
	return f, nil
}
