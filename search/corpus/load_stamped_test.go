package corpus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// unchanged is Unchanged without the refreshed stamp.
func unchanged(stamp []byte, patterns []string, lim Limits) bool {
	ok, _ := Unchanged(stamp, patterns, lim)
	return ok
}

func TestUnchangedStamp(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "papers.jsonl")
	line := `{"title":"Tardigrades in vacuum","abstract":"Desiccated tardigrades revive after ten days of hard vacuum exposure in orbit."}` + "\n"
	if err := os.WriteFile(file, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour) // not racy: size and time decide
	if err := os.Chtimes(file, old, old); err != nil {
		t.Fatal(err)
	}
	patterns := []string{filepath.Join(dir, "*.jsonl")}
	c, stamp, err := LoadFilesStamped(patterns, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Papers) != 1 {
		t.Fatalf("%d papers", len(c.Papers))
	}
	if !unchanged(stamp, patterns, Limits{}) {
		t.Error("untouched files reported changed")
	}
	if unchanged(stamp, patterns, Limits{MaxAbstract: 10}) {
		t.Error("other limits reported unchanged")
	}
	// Touched but not changed: the hash decides.
	now := time.Now().Add(-time.Minute)
	if err := os.Chtimes(file, now, now); err != nil {
		t.Fatal(err)
	}
	if !unchanged(stamp, patterns, Limits{}) {
		t.Error("a touched file with the same content reported changed")
	}
	if err := os.WriteFile(file, []byte(line+line), 0o644); err != nil {
		t.Fatal(err)
	}
	if unchanged(stamp, patterns, Limits{}) {
		t.Error("an appended file reported unchanged")
	}
	if err := os.WriteFile(filepath.Join(dir, "more.jsonl"), []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	if unchanged(stamp, patterns, Limits{}) {
		t.Error("a new file reported unchanged")
	}
	if unchanged([]byte("{garbage"), patterns, Limits{}) || unchanged(nil, patterns, Limits{}) {
		t.Error("a damaged or missing stamp reported unchanged")
	}
}

// A file modified just before it was read is verified by its hash even with
// its recorded size and time.
func TestUnchangedRacyFile(t *testing.T) {
	a := filepath.Join(t.TempDir(), "a.jsonl")
	paper := `{"title": "Paper number 1 on stamps", "abstract": "We study paper 1 and show that stamps of loaded corpora make restarts fast and correct in every case."}` + "\n"
	if err := os.WriteFile(a, []byte(paper), 0o644); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(a)
	_, stamp, err := LoadFilesStamped([]string{a}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(a, []byte(strings.Replace(paper, "number 1", "number 7", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(a, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if unchanged(stamp, []string{a}, Limits{}) {
		t.Error("a racy file was trusted by its size and time")
	}
}

// A metadata.tsv appearing beside text files changes the corpus.
func TestUnchangedSidecar(t *testing.T) {
	dir := t.TempDir()
	txt := filepath.Join(dir, "papers.txt")
	old := time.Now().Add(-time.Hour)
	write := func(name, data string) {
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(name, old, old); err != nil {
			t.Fatal(err)
		}
	}
	write(txt, "Test collection\n\nWe study stamps of loaded corpora and show that restarts become fast and stay correct.\n")
	_, stamp, err := LoadFilesStamped([]string{txt}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !unchanged(stamp, []string{txt}, Limits{}) {
		t.Fatal("an unchanged text file reported changed")
	}
	write(filepath.Join(dir, sidecarName), "file\tparagraph\ttitle\npapers.txt\t1\tStamps\n")
	if unchanged(stamp, []string{txt}, Limits{}) {
		t.Error("a new sidecar was ignored")
	}
}

// A file that had to be hashed (racy when stamped, or touched) is stamped
// anew once it is old enough, so the next check trusts its size and time.
func TestUnchangedRefreshesStamp(t *testing.T) {
	a := filepath.Join(t.TempDir(), "a.jsonl")
	paper := `{"title": "Paper number 1 on stamps", "abstract": "We study paper 1 and show that stamps of loaded corpora make restarts fast and correct in every case."}` + "\n"
	if err := os.WriteFile(a, []byte(paper), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stamp, err := LoadFilesStamped([]string{a}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	ok, fresh := Unchanged(stamp, []string{a}, Limits{})
	if !ok || fresh != nil {
		t.Fatalf("a file just written: unchanged %v, refreshed %v (want true, none while racy)", ok, fresh != nil)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(a, old, old); err != nil {
		t.Fatal(err)
	}
	ok, fresh = Unchanged(stamp, []string{a}, Limits{})
	if !ok || fresh == nil {
		t.Fatalf("an old file verified by its hash: unchanged %v, refreshed %v", ok, fresh != nil)
	}
	// The new stamp trusts size and time: other words, same size and time.
	if err := os.WriteFile(a, []byte(strings.Replace(paper, "number 1", "number 7", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(a, old, old); err != nil {
		t.Fatal(err)
	}
	if ok, again := Unchanged(fresh, []string{a}, Limits{}); !ok || again != nil {
		t.Errorf("the refreshed stamp: unchanged %v, refreshed again %v (the file was hashed)", ok, again != nil)
	}
	if unchanged(stamp, []string{a}, Limits{}) {
		t.Error("the old racy stamp trusted size and time")
	}
}
