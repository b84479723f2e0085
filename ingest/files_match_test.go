package ingest_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/paperbot/paperbot/ingest"
	"github.com/paperbot/paperbot/ingest/feedtest"
	"github.com/paperbot/paperbot/ingest/sources"
	"github.com/paperbot/paperbot/search"
)

// TestFetchedPaperInFilesIsTheFilesPaper: arXiv announces a paper the
// operator's file already holds (same title, other case and punctuation)
// and a new one. After the fetch is applied to the index built from the
// file, the file's paper is still the only card for it, under its ID, with
// its abstract, and it is not news; the new paper is.
func TestFetchedPaperInFilesIsTheFilesPaper(t *testing.T) {
	rec, err := feedtest.Load("../../shared/feeds")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "papers.jsonl")
	const fileAbstract = "The operator's own copy of the abstract about diffusion samplers for protein backbones."
	err = os.WriteFile(file, []byte(`{"title":"Diffusion Samplers for Protein Backbones","abstract":"`+fileAbstract+`"}
{"title":"Graph transformers for crystal lattices","abstract":"We model crystal lattices as graphs and learn them with transformers."}
`), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	files, err := search.LoadFiles([]string{file})
	if err != nil {
		t.Fatal(err)
	}
	fileID := files.Papers[0].ID
	ix, err := search.Open(t.Context(), files, search.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()

	srv := feedtest.NewServer()
	defer srv.Close()
	loc, _ := time.LoadLocation("America/New_York")
	known := feedtest.Paper{ArXivID: "2609.30001", Title: "Diffusion samplers for protein backbones.", Categories: []string{"cs.LG"},
		Abstract: "The arXiv abstract about diffusion samplers for protein backbones, worded differently."}
	fresh := feedtest.Paper{ArXivID: "2609.30002", Title: "Diffusion samplers for protein side chains", Categories: []string{"cs.LG"},
		Abstract: "Diffusion samplers place protein side chains."}
	srv.SetRSS(rec.RSS(time.Date(2026, 9, 28, 0, 0, 0, 0, loc), false, known, fresh))
	c := &clock{time.Date(2026, 9, 28, 5, 0, 0, 0, time.UTC)}
	f, cat := newFetcher(t, srv, ingest.Sources{ArXiv: []string{"cs.LG"}}, c)
	f.MatchFiles(ix)

	ch, err := f.Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if ch.Added != 1 || ch.News != 1 {
		t.Errorf("changes %+v: want 1 added, 1 news (the file's paper is not new)", ch)
	}
	if _, err := f.ApplyTo(t.Context(), ix); err != nil {
		t.Fatal(err)
	}
	if got := ix.Stats().Papers; got != 3 {
		t.Errorf("%d papers in the index, want 3 (two files' and one new)", got)
	}
	e, ok := cat.Lookup("arxiv:" + known.ArXivID)
	if !ok || e.ID != fileID || !e.InFiles || e.News {
		t.Errorf("catalog entry of the file's paper: %+v, %v; want it under the file paper's ID, InFiles, not news", e, ok)
	}
	p, err := ix.Get(fileID)
	if err != nil || p.Abstract != fileAbstract {
		t.Errorf("the file's paper in the index: %q, %v; want the file's abstract", p.Abstract, err)
	}
	res, err := ix.Search(t.Context(), search.Request{Text: "diffusion samplers protein backbones", Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	cards := 0
	for _, r := range res.Results {
		if sources.TitleKey(r.Paper.Title) == sources.TitleKey(known.Title) {
			cards++
		}
	}
	if cards != 1 {
		t.Errorf("%d cards for the file's paper in %v, want 1", cards, res.Results)
	}
	// Digests take their news from the catalog's arrivals.
	newID := func() string { e, _ := cat.Lookup("arxiv:" + fresh.ArXivID); return e.ID }()
	arrived := cat.FirstSeen([]string{fileID, newID})
	if _, ok := arrived[fileID]; ok || len(arrived) != 1 {
		t.Errorf("arrivals %v: want only the new paper %s", arrived, newID)
	}
	if n := cat.AddedSince(c.t.Add(-time.Hour)); n != 1 {
		t.Errorf("%d papers added today, want 1", n)
	}

	// A v2 of the file's paper changes the catalog, never the file's card.
	c.t = c.t.Add(24 * time.Hour)
	known.Version, known.Announce, known.Abstract = 2, "replace", "A second arXiv version of the abstract."
	srv.SetRSS(rec.RSS(time.Date(2026, 9, 29, 0, 0, 0, 0, loc), false, known))
	if _, err := f.Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := f.ApplyTo(t.Context(), ix); err != nil {
		t.Fatal(err)
	}
	if p, _ := ix.Get(fileID); p.Abstract != fileAbstract || ix.Stats().Papers != 3 {
		t.Errorf("after a v2: %d papers, abstract %q; want 3 and the file's", ix.Stats().Papers, p.Abstract)
	}
}
