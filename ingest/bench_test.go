package ingest_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/paperbot/paperbot/ingest"
	"github.com/paperbot/paperbot/ingest/feedstore"
	"github.com/paperbot/paperbot/ingest/feedtest"
	"github.com/paperbot/paperbot/ingest/sources"
	"github.com/paperbot/paperbot/search"
	"github.com/paperbot/paperbot/seeds"
)

// dayPapers is a synthetic day of cs.LG: n real ICLR 2024 titles and
// abstracts (shared/corpora) announced as new arXiv papers.
func dayPapers(b *testing.B, n int) []feedtest.Paper {
	b.Helper()
	c, err := search.LoadFiles([]string{"../../shared/corpora/dotd-NeurIPS2024Scrape/ICLR_cc_2024_Conference.csv"})
	if err != nil {
		b.Fatal(err)
	}
	if len(c.Papers) < n {
		b.Fatalf("only %d papers", len(c.Papers))
	}
	out := make([]feedtest.Paper, n)
	for i, p := range c.Papers[:n] {
		out[i] = feedtest.Paper{ArXivID: fmt.Sprintf("2609.%05d", 50000+i), Title: p.Title, Abstract: p.Abstract,
			Authors: p.Authors, Categories: []string{"cs.LG"}}
	}
	return out
}

// BenchmarkFetchDay is one morning: a 300-paper cs.LG announcement feed
// (plus 30 of them announced again as cross-lists, to be merged) fetched
// from a loopback arXiv, merged into the catalog, stored, and applied to a
// persistent index that already holds a corpus (the 57 seeds, or the
// 2,610 papers of ICML 2024), each new paper looked up among the index's
// papers by title first.
//
//	go test ./ingest -run '^$' -bench FetchDay -benchtime 5x
func BenchmarkFetchDay(b *testing.B) {
	seedCorpus, err := search.LoadFS(seeds.FS, "*.txt")
	if err != nil {
		b.Fatal(err)
	}
	icml, err := search.LoadFiles([]string{"../../shared/corpora/dotd-NeurIPS2024Scrape/ICML_cc_2024_Conference.csv"})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("base=seeds", func(b *testing.B) { benchFetchDay(b, seedCorpus) })
	b.Run(fmt.Sprintf("base=icml2024-%d", len(icml.Papers)), func(b *testing.B) { benchFetchDay(b, icml) })
}

func benchFetchDay(b *testing.B, base *search.Corpus) {
	rec, err := feedtest.Load("../../shared/feeds")
	if err != nil {
		b.Fatal(err)
	}
	papers := dayPapers(b, 300)
	feedPapers := append([]feedtest.Paper(nil), papers...)
	for _, p := range papers[:30] {
		p.Announce, p.Categories = "cross", []string{"stat.ML", "cs.LG"}
		feedPapers = append(feedPapers, p)
	}
	srv := feedtest.NewServer()
	defer srv.Close()
	srv.SetRSS(rec.RSS(time.Date(2026, 9, 24, 4, 0, 0, 0, time.UTC), false, feedPapers...))
	rss, oai, or := srv.URLs()
	now := func() time.Time { return time.Date(2026, 9, 24, 5, 0, 0, 0, time.UTC) }
	ctx := context.Background()
	for b.Loop() {
		b.StopTimer()
		dir := b.TempDir()
		ix, err := search.Open(ctx, base, search.Options{Dir: filepath.Join(dir, "index")})
		if err != nil {
			b.Fatal(err)
		}
		st, err := feedstore.Open(filepath.Join(dir, feedstore.FileName), 0)
		if err != nil {
			b.Fatal(err)
		}
		client, err := sources.NewClient(sources.Config{Contact: "ops@example.org", RSSURL: rss, OAIURL: oai, OpenReviewURL: or, Now: now})
		if err != nil {
			b.Fatal(err)
		}
		f, err := ingest.NewFetcher(ingest.Config{Sources: ingest.Sources{ArXiv: []string{"cs.LG"}}, Client: client, Store: st,
			Catalog: ingest.NewCatalog(nil), Now: now}, nil)
		if err != nil {
			b.Fatal(err)
		}
		f.MatchFiles(ix) // as fetch and serve do: each new paper looked up by title
		b.StartTimer()

		ch, err := f.Run(ctx)
		if err != nil {
			b.Fatal(err)
		}
		applied, err := f.ApplyTo(ctx, ix)
		if err != nil {
			b.Fatal(err)
		}

		b.StopTimer()
		if ch.Added != 300 || ch.Updated != 30 || applied.Added != 300 {
			b.Fatalf("merged %+v, applied %+v; want 300 added, 30 cross-lists merged", ch, applied)
		}
		st.Close()
		ix.Close()
		b.StartTimer()
	}
}
