package corpus

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// cachedPaper is a JSON Lines record with an abstract long enough to count.
func cachedPaper(i int) string {
	return fmt.Sprintf(`{"title": "Paper number %d on caching", "abstract": "We study paper %d and show that snapshots of loaded corpora make restarts fast and correct in every case.", "authors": "Ada Lovelace"}`+"\n", i, i)
}

// writeAged writes a corpus file dated an hour ago, so its stamp is not
// racy and the size-and-time check alone decides.
func writeAged(t *testing.T, path string, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
}

func loadCachedT(t *testing.T, patterns []string, lim Limits, cache string) (*Corpus, bool) {
	t.Helper()
	c, hit, err := LoadFilesCached(patterns, lim, cache)
	if err != nil {
		t.Fatalf("LoadFilesCached: %v", err)
	}
	return c, hit
}

func TestLoadFilesCached(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	a := filepath.Join(dir, "a.jsonl")
	writeAged(t, a, cachedPaper(1)+cachedPaper(2))
	glob := []string{filepath.Join(dir, "*.jsonl")}

	first, hit := loadCachedT(t, glob, Limits{}, cache)
	if hit {
		t.Fatal("the first load came from a cache")
	}
	want, err := LoadFiles(glob)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(first, want) {
		t.Fatalf("a cached load differs from LoadFiles:\n%+v\n%+v", first, want)
	}
	again, hit := loadCachedT(t, glob, Limits{}, cache)
	if !hit {
		t.Fatal("unchanged files were loaded again")
	}
	if !reflect.DeepEqual(again, want) {
		t.Fatalf("the snapshot differs from the load:\n%+v\n%+v", again, want)
	}

	steps := []struct {
		name    string
		change  func(t *testing.T)
		lim     Limits
		wantHit bool
		papers  int
	}{
		{"touched, same content: hashed, still served", func(t *testing.T) {
			now := time.Now().Add(-time.Minute)
			if err := os.Chtimes(a, now, now); err != nil {
				t.Fatal(err)
			}
		}, Limits{}, true, 2},
		{"a paper appended", func(t *testing.T) { writeAged(t, a, cachedPaper(1)+cachedPaper(2)+cachedPaper(3)) }, Limits{}, false, 3},
		{"unchanged again", func(*testing.T) {}, Limits{}, true, 3},
		{"other limits", func(*testing.T) {}, Limits{MaxAbstract: 50}, false, 3},
		{"a new file matching the glob", func(t *testing.T) {
			writeAged(t, filepath.Join(dir, "b.jsonl"), cachedPaper(4))
		}, Limits{MaxAbstract: 50}, false, 4},
		{"a file removed", func(t *testing.T) {
			if err := os.Remove(filepath.Join(dir, "b.jsonl")); err != nil {
				t.Fatal(err)
			}
		}, Limits{MaxAbstract: 50}, false, 3},
		{"a damaged snapshot", func(t *testing.T) {
			if err := os.WriteFile(filepath.Join(cache, snapshotFile), []byte("junk"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, Limits{MaxAbstract: 50}, false, 3},
	}
	for _, s := range steps {
		s.change(t)
		c, hit := loadCachedT(t, glob, s.lim, cache)
		if hit != s.wantHit || len(c.Papers) != s.papers {
			t.Errorf("%s: from cache %v with %d papers, want %v with %d", s.name, hit, len(c.Papers), s.wantHit, s.papers)
		}
	}
}

// TestLoadFilesCachedTrustsSizeAndTime documents the contract: a file with
// its recorded size and modification time is not read at all.
func TestLoadFilesCachedTrustsSizeAndTime(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	a := filepath.Join(dir, "a.jsonl")
	writeAged(t, a, cachedPaper(1))
	fi, _ := os.Stat(a)
	loadCachedT(t, []string{a}, Limits{}, cache)
	// Same size, same time, other content: only a read could tell.
	writeAged(t, a, strings.Replace(cachedPaper(1), "Paper number 1", "Paper number 7", 1))
	if err := os.Chtimes(a, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	c, hit := loadCachedT(t, []string{a}, Limits{}, cache)
	if !hit || !strings.Contains(c.Papers[0].Title, "number 1") {
		t.Fatalf("from cache %v, title %q: the file was read", hit, c.Papers[0].Title)
	}
}

// TestLoadFilesCachedRacyFile: a file modified just before it was read is
// verified by its hash even with its recorded size and time.
func TestLoadFilesCachedRacyFile(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	a := filepath.Join(dir, "a.jsonl")
	if err := os.WriteFile(a, []byte(cachedPaper(1)), 0o644); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(a)
	loadCachedT(t, []string{a}, Limits{}, cache)
	if err := os.WriteFile(a, []byte(strings.Replace(cachedPaper(1), "number 1", "number 7", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(a, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	c, hit := loadCachedT(t, []string{a}, Limits{}, cache)
	if hit || !strings.Contains(c.Papers[0].Title, "number 7") {
		t.Fatalf("from cache %v, title %q: a racy file was trusted", hit, c.Papers[0].Title)
	}
}

// TestLoadFilesCachedSidecar: a metadata.tsv appearing beside text files
// changes the corpus.
func TestLoadFilesCachedSidecar(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	txt := filepath.Join(dir, "papers.txt")
	writeAged(t, txt, "Test collection\n\nWe study snapshots of loaded corpora and show that restarts become fast and stay correct.\n")
	loadCachedT(t, []string{txt}, Limits{}, cache)
	if _, hit := loadCachedT(t, []string{txt}, Limits{}, cache); !hit {
		t.Fatal("unchanged text file loaded again")
	}
	writeAged(t, filepath.Join(dir, sidecarName), "file\tparagraph\ttitle\npapers.txt\t1\tSnapshots\n")
	c, hit := loadCachedT(t, []string{txt}, Limits{}, cache)
	if hit {
		t.Fatalf("a new sidecar was ignored (title %q)", c.Papers[0].Title)
	}
}
