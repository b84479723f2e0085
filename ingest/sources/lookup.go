package sources

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// ErrNotFound is a paper a service does not know (an arXiv ID with no
// entry, an OpenReview id with no note), or a link no service here serves.
var ErrNotFound = errors.New("no such paper")

// LookUp fetches one paper by its link key (corpus.PaperLinkKey's form):
// "arxiv:ID" from the arXiv query API, "openreview:ID" from OpenReview's
// notes. Other keys and unknown papers are ErrNotFound; a service that
// cannot be reached or answers garbage is any other error. It is as polite
// as every call of c: one request at a time, spaced per site.
func (c *Client) LookUp(ctx context.Context, key string) (Record, error) {
	kind, id, _ := strings.Cut(key, ":")
	if strings.TrimSpace(id) == "" {
		return Record{}, fmt.Errorf("look up %q: %w", key, ErrNotFound)
	}
	var recs []Record
	switch kind {
	case "arxiv":
		f, err := c.ArXivQuery(ctx, url.Values{"id_list": {id}, "max_results": {"1"}})
		var ae *APIError
		if errors.As(err, &ae) { // arXiv's "incorrect id format"
			return Record{}, fmt.Errorf("look up %s: %w (%v)", key, ErrNotFound, err)
		}
		if err != nil {
			return Record{}, err
		}
		recs = f.Records
	case "openreview":
		body, err := c.openReviewNotes(ctx, url.Values{"id": {id}})
		var he *HTTPError
		if errors.As(err, &he) && (he.Status == 404 || he.Status == 400) {
			return Record{}, fmt.Errorf("look up %s: %w (HTTP %d)", key, ErrNotFound, he.Status)
		}
		if err != nil {
			return Record{}, fmt.Errorf("openreview %s: %w", id, err)
		}
		p, err := ParseOpenReviewNotes(body)
		if err != nil {
			return Record{}, fmt.Errorf("openreview %s: %w", id, err)
		}
		recs = p.Records
	default:
		return Record{}, fmt.Errorf("look up %q: %w", key, ErrNotFound)
	}
	for _, r := range recs {
		if r.Title != "" && r.Announce != AnnounceWithdrawn {
			return r, nil
		}
	}
	return Record{}, fmt.Errorf("look up %s: %w", key, ErrNotFound)
}
