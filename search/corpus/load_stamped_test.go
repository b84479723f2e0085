package corpus

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

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
	if !Unchanged(stamp, patterns, Limits{}) {
		t.Error("untouched files reported changed")
	}
	if Unchanged(stamp, patterns, Limits{MaxAbstract: 10}) {
		t.Error("other limits reported unchanged")
	}
	// Touched but not changed: the hash decides.
	now := time.Now().Add(-time.Minute)
	if err := os.Chtimes(file, now, now); err != nil {
		t.Fatal(err)
	}
	if !Unchanged(stamp, patterns, Limits{}) {
		t.Error("a touched file with the same content reported changed")
	}
	if err := os.WriteFile(file, []byte(line+line), 0o644); err != nil {
		t.Fatal(err)
	}
	if Unchanged(stamp, patterns, Limits{}) {
		t.Error("an appended file reported unchanged")
	}
	if err := os.WriteFile(filepath.Join(dir, "more.jsonl"), []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	if Unchanged(stamp, patterns, Limits{}) {
		t.Error("a new file reported unchanged")
	}
	if Unchanged([]byte("{garbage"), patterns, Limits{}) || Unchanged(nil, patterns, Limits{}) {
		t.Error("a damaged or missing stamp reported unchanged")
	}
}
