package sources

import (
	"fmt"
	"strings"
	"time"
)

// OpenReviewPage is one answer of OpenReview API v2 GET /notes.
type OpenReviewPage struct {
	// Count is the total number of notes matching, -1 when the answer has no
	// count (OpenReview omits it for some queries).
	Count int
	// Notes is how many notes the answer held, including any skipped for
	// lacking an id; paging advances by it.
	Notes   int
	Records []Record
}

// openReviewForum is where a note's discussion page lives; notes' pdf paths
// are relative to the same host.
const openReviewForum = "https://openreview.net"

type orValue[T any] struct {
	Value T `json:"value"`
}

type orNote struct {
	ID      string `json:"id"`
	Forum   string `json:"forum"`
	Number  int    `json:"number"`
	Cdate   int64  `json:"cdate"`
	Odate   int64  `json:"odate"`
	Pdate   int64  `json:"pdate"`
	Mdate   int64  `json:"mdate"`
	Content struct {
		Title    orValue[string]   `json:"title"`
		Abstract orValue[string]   `json:"abstract"`
		Authors  orValue[[]string] `json:"authors"`
		Keywords orValue[[]string] `json:"keywords"`
		Venue    orValue[string]   `json:"venue"`
		VenueID  orValue[string]   `json:"venueid"`
	} `json:"content"`
}

type orError struct {
	Name    string `json:"name"`
	Message string `json:"message"`
	Status  int    `json:"status"`
}

// ParseOpenReviewNotes parses a /notes answer. Notes whose venueid marks a
// withdrawn or desk-rejected submission get Announce AnnounceWithdrawn. An
// HTML page (OpenReview's browser check answers 200 with one) is
// ErrUnexpectedContent, never an empty venue; an error object is an
// *APIError.
func ParseOpenReviewNotes(body []byte) (OpenReviewPage, error) {
	var doc struct {
		Count *int     `json:"count"`
		Notes []orNote `json:"notes"`
		orError
	}
	if err := decodeJSON("parse OpenReview notes", body, &doc); err != nil {
		return OpenReviewPage{}, err
	}
	if doc.Notes == nil {
		if doc.Name != "" || doc.Message != "" {
			return OpenReviewPage{}, &APIError{Service: "openreview", Name: doc.Name, Message: doc.Message}
		}
		return OpenReviewPage{}, fmt.Errorf("parse OpenReview notes: no notes field: %w", ErrUnexpectedContent)
	}
	p := OpenReviewPage{Count: -1, Notes: len(doc.Notes)}
	if doc.Count != nil {
		p.Count = *doc.Count
	}
	for _, n := range doc.Notes {
		if n.ID == "" {
			continue
		}
		c := n.Content
		r := Record{
			Source:       "openreview",
			OpenReviewID: n.ID,
			Title:        CleanSpace(c.Title.Value),
			Abstract:     CleanSpace(c.Abstract.Value),
			Authors:      cleanList(c.Authors.Value),
			Keywords:     cleanList(c.Keywords.Value),
			Venue:        CleanSpace(c.Venue.Value),
			VenueID:      strings.TrimSpace(c.VenueID.Value),
			URL:          openReviewForum + "/forum?id=" + n.ID,
			Announce:     AnnounceNew,
		}
		for _, ms := range []int64{n.Pdate, n.Odate, n.Cdate} {
			if ms > 0 {
				r.Announced = time.UnixMilli(ms).UTC()
				break
			}
		}
		if n.Mdate > 0 {
			r.Updated = time.UnixMilli(n.Mdate).UTC()
		}
		if isWithdrawnVenue(r.VenueID) {
			r.Announce = AnnounceWithdrawn
		}
		p.Records = append(p.Records, r)
	}
	return p, nil
}

// ParseOpenReviewError returns the *APIError an OpenReview error body
// describes, or nil when body is not one.
func ParseOpenReviewError(body []byte) error {
	var e orError
	if decodeJSON("parse OpenReview error", body, &e) != nil || e.Name == "" && e.Message == "" {
		return nil
	}
	return &APIError{Service: "openreview", Name: e.Name, Message: e.Message}
}

func isWithdrawnVenue(venueID string) bool {
	return strings.HasSuffix(venueID, "/Withdrawn_Submission") || strings.HasSuffix(venueID, "/Desk_Rejected_Submission")
}
