package ingest

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/paperbot/paperbot/ingest/sources"
)

// feedsDir holds recorded real responses (see its README for fidelity).
const feedsDir = "../../shared/feeds"

func recordedRSS(t *testing.T) sources.Feed {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(feedsDir, "arxiv-rss-2026-cs.LG+cs.AI+cs.CL+stat.ML-trimmed.xml"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := sources.ParseRSS(b)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

var day1 = time.Date(2026, 9, 24, 5, 0, 0, 0, time.UTC)

func TestCatalogMergesByIdentity(t *testing.T) {
	feed := recordedRSS(t)
	c := NewCatalog(nil)
	entries, ch := c.Plan(feed.Records, day1)
	// new, new, cross (a paper we never saw: new to us), replace (an old
	// paper's new version: searchable, not news).
	if ch.Added != 4 || ch.News != 3 || len(entries) != 4 {
		t.Fatalf("first feed: %+v, %d entries", ch, len(entries))
	}
	if c.Len() != 0 {
		t.Fatal("Plan changed the catalog before Commit")
	}
	c.Commit(entries)
	first, ok := c.Lookup("arxiv:2609.26811")
	if !ok || !first.News || !first.FirstSeen.Equal(day1) {
		t.Fatalf("new paper entry %+v", first)
	}

	day2 := day1.Add(24 * time.Hour)
	v2 := feed.Records[0]
	v2.Version, v2.Announce, v2.Abstract = 2, sources.AnnounceReplace, "A rewritten abstract about spectral local learning."
	cross := feed.Records[1]
	cross.Announce, cross.Categories = sources.AnnounceCross, []string{"stat.ML"}
	again := feed.Records[1] // the same announcement twice changes nothing
	byDOI := sources.Record{Source: "openreview", OpenReviewID: "abc", DOI: "10.1093/bioinformatics/btac431", Title: "Outlier detection for multi-network data", Venue: "ICLR 2026 poster"}
	sameTitleOtherPaper := sources.Record{Source: "arxiv-rss", ArXivID: "2610.00001", Version: 1, Title: feed.Records[1].Title, Abstract: "Another paper with the same title.", Announce: sources.AnnounceNew}
	entries, ch = c.Plan([]sources.Record{v2, cross, again, byDOI, sameTitleOtherPaper}, day2)
	if ch.Added != 1 || ch.News != 1 || ch.Updated != 3 || ch.Unchanged != 1 {
		t.Fatalf("second day: %+v", ch)
	}
	c.Commit(entries)
	got, _ := c.Lookup("arxiv:2609.26811")
	if got.ID != first.ID || got.Record.Version != 2 || got.Record.Abstract != v2.Abstract || !got.FirstSeen.Equal(day1) {
		t.Errorf("replacement: %+v, want ID %s kept, v2 text, first seen day 1", got, first.ID)
	}
	x, _ := c.Lookup("arxiv:2609.26820")
	if len(x.Categories) != 3 || x.Categories[2] != "stat.ML" {
		t.Errorf("cross-list categories %v", x.Categories)
	}
	or, _ := c.Lookup("openreview:abc")
	if dblp, _ := c.Lookup("arxiv:2205.06398"); or.ID != dblp.ID {
		t.Errorf("OpenReview record with the paper's DOI became a second paper %s beside %s", or.ID, dblp.ID)
	}
	if other, _ := c.Lookup("arxiv:2610.00001"); other.ID == x.ID {
		t.Error("a paper with another arXiv ID and the same title was merged")
	}

	// Withdrawal: arXiv's last version says so; older versions do not bring it back.
	gone := v2
	gone.Version, gone.Abstract = 3, "This paper has been withdrawn by the author due to an error in Section 3."
	entries, ch = c.Plan([]sources.Record{gone}, day2.Add(24*time.Hour))
	c.Commit(entries)
	late := v2
	entries, _ = c.Plan([]sources.Record{late}, day2.Add(48*time.Hour))
	c.Commit(entries)
	if w, _ := c.Lookup(first.ID); ch.Withdrawn != 1 || !w.Withdrawn {
		t.Errorf("withdrawal: %+v, entry %+v", ch, w)
	}
	corp := c.Corpus(nil)
	for _, p := range corp.Papers {
		if p.ID == first.ID {
			t.Error("withdrawn paper still in the corpus")
		}
	}
	if n := len(corp.Papers); n != c.Len()-1 {
		t.Errorf("corpus has %d papers, want %d", n, c.Len()-1)
	}
	if fs := c.FirstSeen([]string{first.ID, x.ID, "nope"}); len(fs) != 1 || !fs[x.ID].Equal(day1) {
		t.Errorf("FirstSeen %v", fs)
	}
}
