package sources

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
)

// MaxOpenReviewLimit is the largest page OpenReview serves; a larger limit
// is an HTTP 400.
const MaxOpenReviewLimit = 1000

// OpenReviewVenue lists the notes whose content.venueid is venueID, in
// submission-number order, limit per request (0 means MaxOpenReviewLimit;
// more is an error before any request), and calls page with each page's
// records and its offset. It returns the number of records handed over.
// An HTML answer (OpenReview's browser check) is ErrUnexpectedContent, an
// error object an *APIError, and page's error stops the listing.
func (c *Client) OpenReviewVenue(ctx context.Context, venueID string, limit int, page func(recs []Record, offset int) error) (int, error) {
	switch {
	case venueID == "":
		return 0, errors.New("openreview: empty venue id")
	case limit == 0:
		limit = MaxOpenReviewLimit
	case limit < 0 || limit > MaxOpenReviewLimit:
		return 0, fmt.Errorf("openreview: limit %d outside 1..%d", limit, MaxOpenReviewLimit)
	}
	total := 0
	for offset := 0; ; {
		v := url.Values{
			"content.venueid": {venueID},
			"limit":           {strconv.Itoa(limit)},
			"offset":          {strconv.Itoa(offset)},
			"sort":            {"number:asc"},
		}
		body, err := c.openReviewNotes(ctx, v)
		if err != nil {
			var he *HTTPError
			if errors.As(err, &he) {
				if ae := ParseOpenReviewError(he.Body); ae != nil {
					return total, fmt.Errorf("openreview %s: %w (HTTP %d)", venueID, ae, he.Status)
				}
			}
			return total, fmt.Errorf("openreview %s: %w", venueID, err)
		}
		p, err := ParseOpenReviewNotes(body)
		if err != nil {
			return total, fmt.Errorf("openreview %s: %w", venueID, err)
		}
		if len(p.Records) > 0 {
			if err := page(p.Records, offset); err != nil {
				return total, err
			}
		}
		total += len(p.Records)
		offset += p.Notes
		if p.Notes < limit || p.Count >= 0 && offset >= p.Count {
			return total, nil
		}
	}
}

// openReviewNotes gets OpenReview's notes matching v, with the token when
// there is one.
func (c *Client) openReviewNotes(ctx context.Context, v url.Values) ([]byte, error) {
	auth := ""
	if c.cfg.OpenReviewToken != "" {
		auth = "Bearer " + c.cfg.OpenReviewToken
	}
	return c.getAuth(ctx, c.cfg.OpenReviewURL+"/notes?"+v.Encode(), "application/json", auth)
}
