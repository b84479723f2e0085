package sources

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParseOpenReview(t *testing.T) {
	tests := []struct {
		file     string
		count    int
		records  int
		id       string
		venue    string
		announce Announce
		dated    bool
	}{
		{"openreview-v2-notes-iclr2024-accepted-limit1-scrubbed.json", -1, 1, "rhgIgTSSxW", "ICLR 2024 poster", AnnounceNew, true},
		{"openreview-v2-notes-iclr2024-withdrawn-limit1-scrubbed.json", -1, 1, "", "ICLR 2024 Conference Withdrawn Submission", AnnounceWithdrawn, true},
		{"openreview-v2-notes-iclr2024-listing-count2260-trimmed3-scrubbed.json", 2260, 3, "Ny150AblPu", "ICLR 2024 poster", AnnounceNew, false},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			p, err := ParseOpenReviewNotes(fixture(t, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if p.Count != tt.count || len(p.Records) != tt.records {
				t.Fatalf("count %d records %d", p.Count, len(p.Records))
			}
			r := p.Records[0]
			if tt.id != "" && r.OpenReviewID != tt.id {
				t.Errorf("id %q", r.OpenReviewID)
			}
			if r.Venue != tt.venue || r.Announce != tt.announce || r.Title == "" || r.Abstract == "" || len(r.Authors) == 0 {
				t.Errorf("record %+v", r)
			}
			if r.URL != "https://openreview.net/forum?id="+r.OpenReviewID || r.Key() != "openreview:"+r.OpenReviewID {
				t.Errorf("URL %q key %q", r.URL, r.Key())
			}
			if tt.dated == r.Announced.IsZero() {
				t.Errorf("announced %v", r.Announced)
			}
		})
	}
	p, _ := ParseOpenReviewNotes(fixture(t, "openreview-v2-notes-iclr2024-accepted-limit1-scrubbed.json"))
	// pdate 1705411064826 is 2024-01-16T13:17:44.826Z.
	if got := p.Records[0].Announced; !got.Equal(time.UnixMilli(1705411064826)) || got.Year() != 2024 {
		t.Errorf("announced %v", got)
	}
}

func TestParseOpenReviewErrors(t *testing.T) {
	tests := []struct {
		name   string
		body   []byte
		target error
	}{
		{"browser check page", []byte("<!DOCTYPE html>\n<html><head><title>Verifying your browser | OpenReview</title></head></html>"), ErrUnexpectedContent},
		{"truncated", fixture(t, "openreview-v2-notes-iclr2024-accepted-limit1-scrubbed.json")[:700], ErrTruncated},
		{"empty", nil, ErrTruncated},
		{"no notes", []byte(`{"other": 1}`), ErrUnexpectedContent},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := ParseOpenReviewNotes(tt.body); !errors.Is(err, tt.target) {
				t.Errorf("err = %v, want %v", err, tt.target)
			}
		})
	}
	_, err := ParseOpenReviewNotes(fixture(t, "openreview-v2-error-http400-limit-over-1000.json"))
	var ae *APIError
	if !errors.As(err, &ae) || ae.Name != "ValidationError" || !strings.Contains(ae.Message, "limit must be <= 1000") {
		t.Errorf("err = %v, want the ValidationError", err)
	}
}
