package ingest_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/paperbot/paperbot/ingest"
	"github.com/paperbot/paperbot/ingest/feedstore"
	"github.com/paperbot/paperbot/ingest/feedtest"
	"github.com/paperbot/paperbot/ingest/sources"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func newFetcher(t *testing.T, srv *feedtest.Server, src ingest.Sources, c *clock) (*ingest.Fetcher, *ingest.Catalog) {
	t.Helper()
	return newFetcherWith(t, srv, ingest.Config{Sources: src}, c)
}

// newFetcherWith is newFetcher with more of the Config (Sources and the
// rest as given; client, store, catalog and clock filled in).
func newFetcherWith(t *testing.T, srv *feedtest.Server, cfg ingest.Config, c *clock) (*ingest.Fetcher, *ingest.Catalog) {
	t.Helper()
	rss, oai, or := srv.URLs()
	client, err := sources.NewClient(sources.Config{Contact: "ops@example.org", RSSURL: rss, OAIURL: oai, OpenReviewURL: or,
		Now: c.now, Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }})
	if err != nil {
		t.Fatal(err)
	}
	st, err := feedstore.Open(filepath.Join(t.TempDir(), feedstore.FileName), 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cat := ingest.NewCatalog(nil)
	cfg.Client, cfg.Store, cfg.Catalog, cfg.Now = client, st, cat, c.now
	f, err := ingest.NewFetcher(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	return f, cat
}

// TestOpenReviewVenueAndWithdrawals: a venue's accepted papers come in; a
// later listing of its withdrawn submissions takes one out; an HTML answer
// is that source's recorded error.
func TestOpenReviewVenueAndWithdrawals(t *testing.T) {
	rec, err := feedtest.Load("../../shared/feeds")
	if err != nil {
		t.Fatal(err)
	}
	srv := feedtest.NewServer()
	defer srv.Close()
	const venue = "ICLR.cc/2026/Conference"
	paper := feedtest.Paper{OpenReviewID: "Abc123xyz0", Title: "Protein design with discrete diffusion", Abstract: "A discrete diffusion model designs protein sequences."}
	srv.SetNotes(venue, rec.OpenReviewNotes(venue, true, paper))
	srv.SetNotes(venue+"/Withdrawn_Submission", rec.OpenReviewWithdrawn(venue))
	c := &clock{time.Date(2026, 9, 24, 5, 0, 0, 0, time.UTC)}
	f, cat := newFetcher(t, srv, ingest.Sources{OpenReview: []string{venue}}, c)
	ch, err := f.Run(t.Context())
	if err != nil || ch.Added != 4 {
		t.Fatalf("first listing: %+v, %v; want the 3 recorded notes and ours", ch, err)
	}

	c.t = c.t.Add(24 * time.Hour)
	srv.SetNotes(venue+"/Withdrawn_Submission", rec.OpenReviewWithdrawn(venue, paper))
	if ch, err = f.Run(t.Context()); err != nil || ch.Withdrawn != 1 {
		t.Fatalf("withdrawal: %+v, %v", ch, err)
	}
	if e, _ := cat.Lookup("openreview:" + paper.OpenReviewID); !e.Withdrawn {
		t.Errorf("withdrawn note still listed: %+v", e)
	}

	c.t = c.t.Add(24 * time.Hour)
	srv.SetNotes(venue, []byte("<!DOCTYPE html><html><body>Checking your browser</body></html>"))
	if _, err = f.Run(t.Context()); err == nil {
		t.Fatal("an HTML answer was taken for an empty venue")
	}
	st := f.Status()[0]
	if !st.Failing() || !strings.Contains(st.LastError, "HTML") || st.LastSuccess.IsZero() {
		t.Errorf("status after the HTML answer: %+v", st)
	}
}

// TestCatchUpIsBounded: after a long downtime the OAI-PMH catch-up starts
// at most MaxCatchUp back, over the followed categories' sets.
func TestCatchUpIsBounded(t *testing.T) {
	rec, err := feedtest.Load("../../shared/feeds")
	if err != nil {
		t.Fatal(err)
	}
	srv := feedtest.NewServer()
	defer srv.Close()
	c := &clock{time.Date(2026, 9, 1, 5, 0, 0, 0, time.UTC)}
	f, _ := newFetcher(t, srv, ingest.Sources{ArXiv: []string{"cs.LG", "hep-ex"}}, c)
	loc, _ := time.LoadLocation("America/New_York")
	srv.SetRSS(rec.RSS(time.Date(2026, 9, 1, 0, 0, 0, 0, loc), false))
	if _, err := f.Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	c.t = time.Date(2026, 9, 28, 5, 0, 0, 0, time.UTC)
	srv.SetRSS(rec.RSS(time.Date(2026, 9, 28, 0, 0, 0, 0, loc), false))
	if _, err := f.Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	for _, set := range []string{"set=cs", "set=physics:hep-ex"} {
		if n := srv.Count("/oai", set, "from=2026-09-21", "until=2026-09-28"); n != 1 {
			t.Errorf("catch-up of %s from 7 days back asked %d times: %q", set, n, srv.Requests())
		}
	}
}
