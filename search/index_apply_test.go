package search

import (
	"context"
	"errors"
	"testing"
	"time"
)

func tardigrade(id string) Paper {
	return Paper{
		ID:         id,
		Title:      "Tardigrade cryptobiosis survives hard vacuum",
		Authors:    []string{"Ada Lovelace"},
		Venue:      "Journal of Water Bears",
		Year:       2026,
		Abstract:   "We expose desiccated tardigrades in cryptobiosis to hard vacuum for ten days and find that most revive within an hour of rehydration.",
		Categories: []string{"q-bio.PE", "physics.bio-ph"},
		Announced:  time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC),
	}
}

func apply(t *testing.T, ix *Index, b Batch) Applied {
	t.Helper()
	got, err := ix.Apply(context.Background(), b)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	return got
}

func TestApplyAddUpdateDelete(t *testing.T) {
	_, c := seedIndex(t)
	dir := t.TempDir()
	ix := openT(t, c, Options{Dir: dir})
	n := ix.Stats().Papers
	gone := c.Papers[0]

	got := apply(t, ix, Batch{Upsert: []Paper{tardigrade("tard0001")}, Delete: []string{gone.ID, "nosuch00"}})
	if want := (Applied{Added: 1, Deleted: 1, Missing: 1}); got != want {
		t.Errorf("Apply = %+v, want %+v", got, want)
	}
	if got := ix.Stats().Papers; got != n {
		t.Errorf("%d papers after adding one and deleting one, want %d", got, n)
	}
	res := mustFind(t, ix, "tardigrade cryptobiosis vacuum")
	if res.Results[0].Paper.ID != "tard0001" {
		t.Errorf("top hit %q, want the added paper", res.Results[0].Paper.ID)
	}
	added, err := ix.Get("TARD0001")
	if err != nil {
		t.Fatal(err)
	}
	if added.FirstSeen.IsZero() || len(added.Categories) != 2 || !added.Announced.Equal(tardigrade("").Announced) {
		t.Errorf("added paper lost fields: first seen %v, categories %v, announced %v", added.FirstSeen, added.Categories, added.Announced)
	}
	if _, err := ix.Get(gone.ID); KindOf(err) != NotFound {
		t.Errorf("Get(deleted) = %v, want NotFound", err)
	}

	// An update keeps the ID and first sighting; the old text is gone.
	upd := tardigrade("tard0001")
	upd.Title = "Rotifer anhydrobiosis survives hard vacuum"
	upd.Abstract = "Bdelloid rotifers in anhydrobiosis revive after ten days of hard vacuum."
	if got := apply(t, ix, Batch{Upsert: []Paper{upd, tardigrade("tard0002")}}); got != (Applied{Updated: 1, Added: 1}) {
		t.Errorf("Apply = %+v, want one update, one add", got)
	}
	p, err := ix.Get("tard0001")
	if err != nil {
		t.Fatal(err)
	}
	if p.Title != upd.Title || !p.FirstSeen.Equal(added.FirstSeen) {
		t.Errorf("updated paper: title %q first seen %v, want %q and the first sighting %v", p.Title, p.FirstSeen, upd.Title, added.FirstSeen)
	}
	res = mustFind(t, ix, "bdelloid rotifers")
	if res.Results[0].Paper.ID != "tard0001" {
		t.Errorf("top hit for the new text %q, want tard0001", res.Results[0].Paper.ID)
	}
	// Applying the same paper again writes nothing.
	if got := apply(t, ix, Batch{Upsert: []Paper{upd}}); got != (Applied{Unchanged: 1}) {
		t.Errorf("re-applying an unchanged paper: %+v", got)
	}

	// Everything survives a restart, read from the index directory alone.
	hash, papers := ix.CorpusHash(), ix.Stats().Papers
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	ix, err = OpenDir(context.Background(), Options{Dir: dir})
	if err != nil {
		t.Fatalf("OpenDir: %v", err)
	}
	defer ix.Close()
	if ix.CorpusHash() != hash || ix.Stats().Papers != papers || ix.Built() {
		t.Errorf("reopened: hash %s papers %d built %v, want %s, %d, reopened", ix.CorpusHash(), ix.Stats().Papers, ix.Built(), hash, papers)
	}
	res = mustFind(t, ix, "rotifer anhydrobiosis")
	if res.Results[0].Paper.ID != "tard0001" {
		t.Errorf("after reopening, top hit %q", res.Results[0].Paper.ID)
	}
	if res := search2(t, ix, "tardigrade cryptobiosis"); len(res.Results) == 0 || res.Results[0].Paper.ID != "tard0002" {
		t.Errorf("after reopening, the old text of tard0001 or tard0002 is lost: %+v", res.Results)
	}
}

func search2(t *testing.T, ix *Index, q string) *Results {
	t.Helper()
	res, err := ix.Search(context.Background(), Request{Text: q})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// The corpus hash of an index changed by batches is that of a corpus
// holding the same papers, so a reload of those papers does nothing.
func TestApplyHashMatchesCorpus(t *testing.T) {
	c := subset(t, 20)
	ix := openT(t, c, Options{})
	extra := tardigrade("tard0001")
	apply(t, ix, Batch{Upsert: []Paper{extra}, Delete: []string{c.Papers[3].ID}})
	want := &Corpus{Papers: append(append([]Paper{}, c.Papers[:3]...), c.Papers[4:]...)}
	got, _ := ix.Get(extra.ID)
	want.Papers = append(want.Papers, got)
	if ix.CorpusHash() != want.Hash() {
		t.Error("the hash after a batch differs from that of the same papers loaded")
	}
}

func TestApplyInvalid(t *testing.T) {
	ix := openT(t, subset(t, 5), Options{})
	noText := tardigrade("x1")
	noText.Title, noText.Abstract = "", " "
	for name, b := range map[string]Batch{
		"no ID":          {Upsert: []Paper{tardigrade("")}},
		"no text":        {Upsert: []Paper{noText}},
		"ID twice":       {Upsert: []Paper{tardigrade("a1")}, Delete: []string{"a1"}},
		"space in an ID": {Delete: []string{"a b"}},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ix.Apply(context.Background(), b)
			if KindOf(err) != Invalid || Message(err) == "" {
				t.Errorf("Apply = %v, want a clear Invalid error", err)
			}
		})
	}
	if got := ix.Stats().Papers; got != 5 {
		t.Errorf("invalid batches changed the index: %d papers", got)
	}
}

func TestApplyCancelledChangesNothing(t *testing.T) {
	ix := openT(t, subset(t, 5), Options{Dir: t.TempDir()})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ix.Apply(ctx, Batch{Upsert: []Paper{tardigrade("tard0001")}}); err == nil {
		t.Fatal("a cancelled batch reported success")
	}
	if _, err := ix.Get("tard0001"); KindOf(err) != NotFound {
		t.Errorf("a cancelled batch was applied: %v", err)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	_, err := ix.Apply(context.Background(), Batch{Delete: []string{"x"}})
	if !errors.Is(err, errClosed) && KindOf(err) != Internal {
		t.Errorf("Apply after Close = %v", err)
	}
}

func TestSearchFilterCategoriesAndDates(t *testing.T) {
	ix := openT(t, subset(t, 5), Options{})
	old := tardigrade("tard0001")
	old.Announced = time.Date(2020, 1, 2, 0, 0, 0, 0, time.UTC)
	old.Categories = []string{"q-bio.PE"}
	newer := tardigrade("tard0002")
	newer.Abstract += " Second study."
	newer.Title += " again"
	newer.Categories = []string{"physics.bio-ph"}
	apply(t, ix, Batch{Upsert: []Paper{old, newer}})
	ids := func(f Filter) []string {
		t.Helper()
		res, err := ix.Search(context.Background(), Request{Text: "tardigrade vacuum", Filter: f})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range res.Results {
			out = append(out, r.Paper.ID)
		}
		return out
	}
	for name, tc := range map[string]struct {
		f    Filter
		want string
	}{
		"category":        {Filter{Categories: []string{"q-bio.PE"}}, "tard0001"},
		"other category":  {Filter{Categories: []string{"physics.bio-ph", "cs.CL"}}, "tard0002"},
		"announced since": {Filter{AnnouncedFrom: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}, "tard0002"},
		"announced until": {Filter{AnnouncedUntil: time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC)}, "tard0001"},
	} {
		if got := ids(tc.f); len(got) != 1 || got[0] != tc.want {
			t.Errorf("%s: %v, want only %s", name, got, tc.want)
		}
	}
	if got := ids(Filter{SeenSince: time.Now().Add(-time.Hour)}); len(got) != 2 {
		t.Errorf("seen in the last hour: %v, want both added papers", got)
	}
	if got := ids(Filter{SeenSince: time.Now().Add(time.Hour)}); len(got) != 0 {
		t.Errorf("seen in the future: %v", got)
	}
}

func TestSetSourcePersists(t *testing.T) {
	dir := t.TempDir()
	c := subset(t, 5)
	ix, err := Open(context.Background(), c, Options{Dir: dir, Source: []byte("first")})
	if err != nil {
		t.Fatal(err)
	}
	if err := ix.SetSource(context.Background(), []byte("second")); err != nil {
		t.Fatal(err)
	}
	if got := string(ix.Source()); got != "second" {
		t.Errorf("Source = %q after SetSource", got)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	ix, err = OpenDir(context.Background(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if got := string(ix.Source()); got != "second" || ix.Stats().Papers != 5 {
		t.Errorf("reopened: Source %q, %d papers", got, ix.Stats().Papers)
	}
}
