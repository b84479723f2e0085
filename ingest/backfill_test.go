package ingest_test

import (
	"testing"
	"time"

	"github.com/paperbot/paperbot/ingest"
	"github.com/paperbot/paperbot/ingest/feedtest"
)

// TestBackfillOnFirstRun: a source that never ran harvests Backfill days
// over OAI-PMH (following its resumption token) before today's feed; the
// next day's run does not harvest again, and without Backfill a first run
// takes today's feed only.
func TestBackfillOnFirstRun(t *testing.T) {
	rec, err := feedtest.Load("../../shared/feeds")
	if err != nil {
		t.Fatal(err)
	}
	loc, _ := time.LoadLocation("America/New_York")
	older := feedtest.Paper{ArXivID: "2609.20001", Title: "Diffusion samplers for protein backbones", Abstract: "We sample protein backbones with diffusion.",
		Categories: []string{"cs.LG"}, Created: "2026-09-25"}
	oldest := feedtest.Paper{ArXivID: "2609.20002", Title: "Graph transformers for crystals", Abstract: "Crystals as graphs.",
		Categories: []string{"cs.LG"}, Created: "2026-09-24"}
	other := feedtest.Paper{ArXivID: "2609.20003", Title: "Type systems for effects", Abstract: "Effects, typed.",
		Categories: []string{"cs.PL"}, Created: "2026-09-25"}
	today := feedtest.Paper{ArXivID: "2609.20004", Title: "Sparse attention at scale", Abstract: "Attention, sparser."}

	for _, tc := range []struct {
		name     string
		backfill time.Duration
		want     []string // arXiv IDs in the catalog after the first run
		missing  []string
	}{
		{"three days", 3 * 24 * time.Hour, []string{older.ArXivID, oldest.ArXivID, today.ArXivID}, []string{other.ArXivID}},
		{"off", 0, []string{today.ArXivID}, []string{older.ArXivID, oldest.ArXivID}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := feedtest.NewServer()
			defer srv.Close()
			srv.SetOAI("cs", "", rec.OAIPage("2026-09-25", "page2", older, other))
			srv.SetOAI("", "page2", rec.OAIPage("2026-09-24", "", oldest))
			srv.SetRSS(rec.RSS(time.Date(2026, 9, 28, 0, 0, 0, 0, loc), false, today))
			c := &clock{time.Date(2026, 9, 28, 5, 0, 0, 0, time.UTC)}
			f, cat := newFetcherWith(t, srv, ingest.Config{Sources: ingest.Sources{ArXiv: []string{"cs.LG"}}, Backfill: tc.backfill}, c)
			if _, err := f.Run(t.Context()); err != nil {
				t.Fatal(err)
			}
			for _, id := range tc.want {
				if e, ok := cat.Lookup("arxiv:" + id); !ok || !e.News {
					t.Errorf("%s not taken in as news on the first run: %+v, %v", id, e, ok)
				}
			}
			for _, id := range tc.missing {
				if _, ok := cat.Lookup("arxiv:" + id); ok {
					t.Errorf("%s taken in; it should not be", id)
				}
			}
			harvests := srv.Count("/oai", "set=cs", "from=2026-09-25", "until=2026-09-28")
			if tc.backfill == 0 && srv.Count("/oai") != 0 {
				t.Errorf("a first run without back-fill asked OAI-PMH: %q", srv.Requests())
			}
			if tc.backfill > 0 && (harvests != 1 || srv.Count("/oai", "resumptionToken=page2") != 1) {
				t.Errorf("back-fill from 3 days back asked %d times, resumed %d times: %q",
					harvests, srv.Count("/oai", "resumptionToken=page2"), srv.Requests())
			}

			c.t = c.t.Add(24 * time.Hour)
			srv.SetRSS(rec.RSS(time.Date(2026, 9, 29, 0, 0, 0, 0, loc), false))
			before := srv.Count("/oai")
			if _, err := f.Run(t.Context()); err != nil {
				t.Fatal(err)
			}
			if n := srv.Count("/oai") - before; n != 0 {
				t.Errorf("the second day harvested again (%d requests): %q", n, srv.Requests())
			}
		})
	}
}
