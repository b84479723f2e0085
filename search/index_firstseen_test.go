package search

import (
	"context"
	"slices"
	"testing"
	"time"
)

// TestRebuildKeepsFirstSeen: a change too large to apply in place builds a
// new index, and the papers the old one had keep when they were first
// seen, on disk (Open and Reload) and in memory; only new papers are new to
// the digests.
func TestRebuildKeepsFirstSeen(t *testing.T) {
	_, seedsCorpus := seedIndex(t)
	first := subset(t, 5)
	firstSeen := func(ix *Index) map[string]time.Time {
		out := map[string]time.Time{}
		for _, p := range seedsCorpus.Papers {
			if got, err := ix.Get(p.ID); err == nil {
				out[p.ID] = got.FirstSeen
			}
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		dir    string
		reopen bool
	}{{"reload in memory", "", false}, {"reload on disk", t.TempDir(), false}, {"open on disk", t.TempDir(), true}} {
		t.Run(tc.name, func(t *testing.T) {
			ix := openT(t, first, Options{Dir: tc.dir})
			before := firstSeen(ix)
			if len(before) != 5 {
				t.Fatalf("first index holds %d papers, want 5", len(before))
			}
			time.Sleep(10 * time.Millisecond)
			// Five papers become all of the seeds: more than half the corpus
			// changes, so a new index replaces the live one.
			all := &Corpus{Papers: slices.Clone(seedsCorpus.Papers)}
			start := time.Now()
			if tc.reopen {
				if err := ix.Close(); err != nil {
					t.Fatal(err)
				}
				ix = openT(t, all, Options{Dir: tc.dir})
			} else if err := ix.Reload(context.Background(), all); err != nil {
				t.Fatal(err)
			}
			after := firstSeen(ix)
			if len(after) != len(seedsCorpus.Papers) {
				t.Fatalf("%d papers after the rebuild, want %d", len(after), len(seedsCorpus.Papers))
			}
			for id, seen := range after {
				if old, ok := before[id]; ok {
					if !seen.Equal(old) {
						t.Errorf("paper %s first seen %v after the rebuild, was %v", id, seen, old)
					}
				} else if seen.Before(start) {
					t.Errorf("new paper %s first seen %v, before the rebuild began at %v", id, seen, start)
				}
			}
		})
	}
}

// TestManifestReadsBothLayouts: manifests written before first-seen times
// were kept still read (with the times unknown), and the new layout round-trips.
func TestManifestReadsBothLayouts(t *testing.T) {
	m := manifest{{ID: "aaaa0001", Content: [16]byte{1}, FirstSeen: time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC).UnixNano()}, {ID: "bbbb0002", Content: [16]byte{2}}}
	got, err := decodeManifest(m.encode())
	if err != nil || !slices.Equal(got, m) {
		t.Fatalf("round trip: %v, %+v", err, got)
	}
	var old []byte // the first layout: length-prefixed ID, then 16 bytes of content hash
	for _, e := range m {
		old = append(old, byte(len(e.ID)))
		old = append(old, e.ID...)
		old = append(old, e.Content[:]...)
	}
	got, err = decodeManifest(old)
	if err != nil || len(got) != 2 || got[0].ID != "aaaa0001" || got[0].FirstSeen != 0 || got[1].Content != m[1].Content {
		t.Fatalf("old layout: %v, %+v", err, got)
	}
	if _, err := decodeManifest(m.encode()[:10]); err == nil {
		t.Error("a cut manifest decoded without error")
	}
}
