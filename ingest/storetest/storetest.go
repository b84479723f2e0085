// Package storetest is the conformance suite of ingest.Store and
// ingest.ChangeLog: every store of the catalog (the bbolt file, PostgreSQL)
// runs it, so a fetcher and the replicas following it see the same
// behaviour from either.
package storetest

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/paperbot/paperbot/ingest"
	"github.com/paperbot/paperbot/ingest/sources"
)

// Store is what the suite needs: a catalog store that numbers its changes.
type Store = ingest.ChangeLog

// Run runs the suite; open returns an empty store, closed by the test's
// cleanup.
func Run(t *testing.T, open func(t *testing.T) Store) {
	for _, tc := range []struct {
		name string
		fn   func(t *testing.T, s Store)
	}{
		{"empty", testEmpty},
		{"save and load", testSaveLoad},
		{"save replaces", testSaveReplaces},
		{"progress without source", testNoSource},
		{"pending until applied", testPending},
		{"changes in order", testChangesInOrder},
		{"changes paged", testChangesPaged},
		{"concurrent saves numbered apart", testConcurrentSaves},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, open(t)) })
	}
}

var seen = time.Date(2026, 9, 24, 5, 0, 0, 0, time.UTC)

// Entry returns a catalog entry of a paper with id and title.
func Entry(id, title string) ingest.Entry {
	return ingest.Entry{ID: id, Keys: []string{"arxiv:2609." + id[:5], "title:" + title}, FirstSeen: seen, Changed: seen, News: true,
		Categories: []string{"cs.LG"},
		Record: sources.Record{Source: "arxiv-rss", ArXivID: "2609." + id[:5], Version: 1, Title: title,
			Abstract: "An abstract about " + title + ".", Authors: []string{"A. Author"}, Categories: []string{"cs.LG"}}}
}

func progress(source, day string) ingest.Progress {
	return ingest.Progress{Source: source, Day: day, LastSuccess: seen, LastChanges: ingest.Changes{Added: 1, News: 1}}
}

func testEmpty(t *testing.T, s Store) {
	ctx := t.Context()
	entries, prog, err := s.Load(ctx)
	if err != nil || len(entries)+len(prog) != 0 {
		t.Fatalf("Load of an empty store: %v, %v, %v", entries, prog, err)
	}
	if seq, err := s.Seq(ctx); err != nil || seq != 0 {
		t.Fatalf("Seq of an empty store: %d, %v; want 0", seq, err)
	}
	if got, last, err := s.ChangesSince(ctx, 0, 10); err != nil || len(got) != 0 || last != 0 {
		t.Fatalf("ChangesSince(0) of an empty store: %v, %d, %v", got, last, err)
	}
	if ids, err := s.Pending(ctx); err != nil || len(ids) != 0 {
		t.Fatalf("Pending of an empty store: %v, %v", ids, err)
	}
}

func testSaveLoad(t *testing.T, s Store) {
	ctx := t.Context()
	a, b := Entry("aaaaa111", "Alpha"), Entry("bbbbb222", "Beta")
	p := progress("arxiv", "2026-09-24")
	p.Harvest = &ingest.Harvest{Sets: []string{"cs", "stat"}, From: "2026-09-20", Until: "2026-09-24", Token: "tok|1001"}
	if err := s.Save(ctx, []ingest.Entry{a, b}, p); err != nil {
		t.Fatal(err)
	}
	q := progress("openreview:ICLR.cc/2026/Conference", "")
	q.LastError, q.LastErrorAt = "503 from OpenReview", seen
	if err := s.Save(ctx, nil, q); err != nil {
		t.Fatal(err)
	}
	entries, prog, err := s.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(entries, func(x, y ingest.Entry) int { return strings.Compare(x.ID, y.ID) })
	if !reflect.DeepEqual(entries, []ingest.Entry{a, b}) {
		t.Errorf("entries:\n got %+v\nwant %+v", entries, []ingest.Entry{a, b})
	}
	slices.SortFunc(prog, func(x, y ingest.Progress) int { return strings.Compare(x.Source, y.Source) })
	if !reflect.DeepEqual(prog, []ingest.Progress{p, q}) {
		t.Errorf("progress:\n got %+v\nwant %+v", prog, []ingest.Progress{p, q})
	}
	only, err := s.Progress(ctx)
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(only, func(x, y ingest.Progress) int { return strings.Compare(x.Source, y.Source) })
	if !reflect.DeepEqual(only, prog) {
		t.Errorf("Progress:\n got %+v\nwant what Load returns, %+v", only, prog)
	}
}

func testSaveReplaces(t *testing.T, s Store) {
	ctx := t.Context()
	a := Entry("aaaaa111", "Alpha")
	if err := s.Save(ctx, []ingest.Entry{a}, progress("arxiv", "2026-09-23")); err != nil {
		t.Fatal(err)
	}
	a2 := a
	a2.Record.Version, a2.Record.Abstract, a2.Withdrawn = 2, "This paper has been withdrawn.", true
	if err := s.Save(ctx, []ingest.Entry{a2}, progress("arxiv", "2026-09-24")); err != nil {
		t.Fatal(err)
	}
	entries, prog, err := s.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || !reflect.DeepEqual(entries[0], a2) {
		t.Errorf("entries after a second save of one paper: %+v, want only %+v", entries, a2)
	}
	if len(prog) != 1 || prog[0].Day != "2026-09-24" {
		t.Errorf("progress after a second save of one source: %+v, want only day 2026-09-24", prog)
	}
}

func testNoSource(t *testing.T, s Store) {
	if err := s.Save(t.Context(), []ingest.Entry{Entry("aaaaa111", "Alpha")}, ingest.Progress{}); err == nil {
		t.Fatal("a progress without a source name was saved")
	}
	if entries, _, _ := s.Load(t.Context()); len(entries) != 0 {
		t.Fatalf("a refused save stored %+v", entries)
	}
}

func testPending(t *testing.T, s Store) {
	ctx := t.Context()
	if err := s.Save(ctx, []ingest.Entry{Entry("bbbbb222", "Beta"), Entry("aaaaa111", "Alpha")}, progress("arxiv", "")); err != nil {
		t.Fatal(err)
	}
	ids, err := s.Pending(ctx)
	if err != nil || !reflect.DeepEqual(ids, []string{"aaaaa111", "bbbbb222"}) {
		t.Fatalf("pending %v, %v; want both, in ID order", ids, err)
	}
	if err := s.Applied(ctx, []string{"aaaaa111", "zzzzz999"}); err != nil {
		t.Fatal(err)
	}
	if ids, _ := s.Pending(ctx); !reflect.DeepEqual(ids, []string{"bbbbb222"}) {
		t.Fatalf("pending after one applied: %v", ids)
	}
	// Saved again, it is pending again.
	if err := s.Save(ctx, []ingest.Entry{Entry("aaaaa111", "Alpha")}, progress("arxiv", "")); err != nil {
		t.Fatal(err)
	}
	if ids, _ := s.Pending(ctx); !reflect.DeepEqual(ids, []string{"aaaaa111", "bbbbb222"}) {
		t.Fatalf("pending after a save of an applied paper: %v", ids)
	}
}

// testChangesInOrder: a follower that has read up to n gets what was saved
// after, each paper once, at its latest version, in the order saved.
func testChangesInOrder(t *testing.T, s Store) {
	ctx := t.Context()
	a, b, c := Entry("aaaaa111", "Alpha"), Entry("bbbbb222", "Beta"), Entry("ccccc333", "Gamma")
	save := func(es ...ingest.Entry) int64 {
		t.Helper()
		if err := s.Save(ctx, es, progress("arxiv", "")); err != nil {
			t.Fatal(err)
		}
		seq, err := s.Seq(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return seq
	}
	s1 := save(a, b)
	if s1 <= 0 {
		t.Fatalf("Seq after a save: %d", s1)
	}
	if got := save(); got != s1 {
		t.Fatalf("a save of progress only moved Seq from %d to %d", s1, got)
	}
	a2 := a
	a2.Record.Version = 2
	s2 := save(c, a2)
	if s2 <= s1 {
		t.Fatalf("Seq went from %d to %d", s1, s2)
	}
	got, last, err := s.ChangesSince(ctx, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	if ids := idsOf(got); !reflect.DeepEqual(ids, []string{"bbbbb222", "ccccc333", "aaaaa111"}) || last != s2 {
		t.Fatalf("ChangesSince(0): %v up to %d; want b, c, a (a at its new version last) up to %d", ids, last, s2)
	}
	if got[2].Record.Version != 2 {
		t.Errorf("a changed paper comes back at version %d, want 2", got[2].Record.Version)
	}
	got, last, err = s.ChangesSince(ctx, s1, 100)
	if err != nil {
		t.Fatal(err)
	}
	if ids := idsOf(got); !reflect.DeepEqual(ids, []string{"ccccc333", "aaaaa111"}) || last != s2 {
		t.Fatalf("ChangesSince(%d): %v up to %d; want c, a up to %d", s1, ids, last, s2)
	}
	if got, last, err := s.ChangesSince(ctx, s2, 100); err != nil || len(got) != 0 || last != s2 {
		t.Fatalf("ChangesSince(latest): %v, %d, %v; want nothing, %d", idsOf(got), last, err, s2)
	}
}

func testChangesPaged(t *testing.T, s Store) {
	ctx := t.Context()
	var all []ingest.Entry
	for _, id := range []string{"aaaaa111", "bbbbb222", "ccccc333", "ddddd444", "eeeee555"} {
		all = append(all, Entry(id, "Paper "+id))
	}
	if err := s.Save(ctx, all, progress("arxiv", "")); err != nil {
		t.Fatal(err)
	}
	var ids []string
	var seq int64
	for range 10 {
		page, last, err := s.ChangesSince(ctx, seq, 2)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) > 2 {
			t.Fatalf("a page of %d with limit 2", len(page))
		}
		if len(page) == 0 {
			break
		}
		ids, seq = append(ids, idsOf(page)...), last
	}
	if !reflect.DeepEqual(ids, idsOf(all)) {
		t.Fatalf("paged through %v, want %v", ids, idsOf(all))
	}
}

// testConcurrentSaves: saves from several goroutines (or replicas) get
// numbers of their own, so that no change is hidden behind another.
func testConcurrentSaves(t *testing.T, s Store) {
	ctx := context.WithoutCancel(t.Context())
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Go(func() {
			id := string(rune('a'+i)) + "xxxx" + "000"
			errs <- s.Save(ctx, []ingest.Entry{Entry(id, "Paper "+id)}, progress("arxiv", ""))
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	got, _, err := s.ChangesSince(ctx, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 8 {
		t.Fatalf("%d changes after 8 concurrent saves: %v", len(got), idsOf(got))
	}
}

func idsOf(es []ingest.Entry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.ID
	}
	return out
}
