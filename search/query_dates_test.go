package search

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestQueryFeedFilters: cat:, since: and date: typed in a query keep the
// papers a feed recorded that way, alone or with words.
func TestQueryFeedFilters(t *testing.T) {
	ix := openT(t, subset(t, 5), Options{})
	old := tardigrade("tard0001")
	old.Announced = time.Date(2026, 10, 20, 0, 0, 0, 0, time.UTC)
	old.Categories = []string{"q-bio.PE"}
	old.FirstSeen = time.Now().Add(-20 * 24 * time.Hour)
	newer := tardigrade("tard0002")
	newer.Abstract += " Second study."
	newer.Title += " again"
	newer.Categories = []string{"physics.bio-ph", "cs.LG"}
	newer.Announced = time.Date(2026, 11, 5, 0, 0, 0, 0, time.UTC)
	newer.FirstSeen = time.Now().Add(-24 * time.Hour)
	apply(t, ix, Batch{Upsert: []Paper{old, newer}})
	for _, tc := range []struct{ q, want string }{
		{"tardigrade vacuum cat:q-bio.PE", "tard0001"},
		{"tardigrade cat:cs.LG", "tard0002"},
		{"cat:cs.LG", "tard0002"},
		{"tardigrade since:7d", "tard0002"},
		{"tardigrade since:4w", "tard0001 tard0002"},
		{"tardigrade date:2026-10", "tard0001"},
		{"tardigrade date:2026-11-05", "tard0002"},
		{"tardigrade date:2026", "tard0001 tard0002"},
		{"tardigrade date:2025", ""},
	} {
		res, err := ix.Search(context.Background(), Request{Text: tc.q})
		if err != nil {
			t.Fatalf("%q: %v", tc.q, err)
		}
		var got []string
		for _, r := range res.Results {
			got = append(got, r.Paper.ID)
		}
		slices.Sort(got)
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%q: %v, want %q", tc.q, got, tc.want)
		}
	}
	for _, tc := range []struct{ q, want string }{
		{"tardigrade since:7x", "since:7d"},
		{"tardigrade date:November", "date:2026-11"},
		{"tardigrade -cat:cs.LG", "cannot leave them out"},
		{"tardigrade cat:", "cat:cs.LG"},
	} {
		_, err := ix.Search(context.Background(), Request{Text: tc.q})
		if KindOf(err) != Invalid || !strings.Contains(Message(err), tc.want) {
			t.Errorf("%q: %v, want an invalid-query message naming %q", tc.q, err, tc.want)
		}
	}
}
