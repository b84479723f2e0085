package search

import (
	"context"
	"os"
	"path/filepath"
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

// manifestFiles lists the manifest files of the live index in dir.
func manifestFiles(t *testing.T, dir string) []string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, readCurrent(dir), manifestPrefix+"*"))
	return m
}

// TestManifestFileOnDisk: an index on disk keeps its manifest in one file
// beside it (scorch's internal storage, read at every open, stays small);
// a change replaces the file, a file a crash left behind is removed at the
// next open, and a lost manifest makes a changed corpus rebuild rather than
// fail.
func TestManifestFileOnDisk(t *testing.T) {
	dir := t.TempDir()
	ix := openT(t, subset(t, 10), Options{Dir: dir})
	files := manifestFiles(t, dir)
	if len(files) != 1 {
		t.Fatalf("manifest files after the build: %v, want one", files)
	}
	if b, err := ix.st.bi.GetInternal([]byte(manifestKey)); err != nil || b != nil {
		t.Errorf("the internal storage still holds a manifest (%d bytes, %v)", len(b), err)
	}
	if _, err := ix.Apply(context.Background(), Batch{Upsert: []Paper{tardigrade("tardi01")}}); err != nil {
		t.Fatal(err)
	}
	after := manifestFiles(t, dir)
	if len(after) != 1 || after[0] == files[0] {
		t.Fatalf("manifest files after a change: %v, want one new one (was %v)", after, files)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}

	stale := filepath.Join(dir, readCurrent(dir), manifestPrefix+"crashed")
	if err := os.WriteFile(stale, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	re, err := OpenDir(context.Background(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if got := manifestFiles(t, dir); !slices.Equal(got, after) {
		t.Errorf("manifest files after reopening: %v, want %v", got, after)
	}
	if err := re.Close(); err != nil {
		t.Fatal(err)
	}

	if err := os.Remove(after[0]); err != nil {
		t.Fatal(err)
	}
	ix = openT(t, subset(t, 12), Options{Dir: dir})
	if got := ix.Stats().Papers; got != 12 {
		t.Fatalf("after losing the manifest: %d papers, want 12", got)
	}
	if got := manifestFiles(t, dir); len(got) != 1 {
		t.Errorf("manifest files after the rebuild: %v, want one", got)
	}
}

// TestRestampKeepsFirstSeen: the same papers from files stamped anew only
// record the stamp; the manifest keeps every first-seen time (a rebuild
// later takes them from it).
func TestRestampKeepsFirstSeen(t *testing.T) {
	dir := t.TempDir()
	c := subset(t, 8)
	ix := openT(t, c, Options{Dir: dir, Source: []byte("stamp 1")})
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	ix = openT(t, subset(t, 8), Options{Dir: dir, Source: []byte("stamp 2")})
	if got := string(ix.Source()); got != "stamp 2" {
		t.Fatalf("source %q, want the new stamp", got)
	}
	man, err := ix.st.manifest()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range man {
		p, err := ix.Get(e.ID)
		if err != nil {
			t.Fatal(err)
		}
		if e.FirstSeen == 0 || !e.firstSeen().Equal(p.FirstSeen) {
			t.Errorf("paper %s: manifest first seen %v, record %v", e.ID, e.firstSeen(), p.FirstSeen)
		}
	}
}
