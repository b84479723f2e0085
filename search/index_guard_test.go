package search

import (
	"context"
	"errors"
	"slices"
	"testing"
)

// TestGuardKeepsLiveIndex: a Guard that refuses keeps the live index, both
// when Open finds another corpus's index in Dir and on Reload; it is asked
// with the live paper count, and not at all for an unchanged corpus.
func TestGuardKeepsLiveIndex(t *testing.T) {
	_, full := seedIndex(t)
	refused := errors.New("refused")
	var asked []int
	guard := func(live LiveCorpus, next LoadReport) error {
		asked = append(asked, live.Papers)
		if next.Papers < live.Papers {
			return refused
		}
		return nil
	}
	dir := t.TempDir()
	ix := openT(t, full, Options{Dir: dir, Guard: guard})
	live := readCurrent(dir)

	if err := ix.Reload(context.Background(), subset(t, 10)); !errors.Is(err, refused) {
		t.Fatalf("Reload to 10 papers = %v, want the guard's error", err)
	}
	if got := ix.Stats().Papers; got != len(full.Papers) {
		t.Errorf("after a refused reload %d papers, want %d", got, len(full.Papers))
	}
	mustFind(t, ix, "Kramers-Wannier duality")
	if err := ix.Reload(context.Background(), full); err != nil {
		t.Fatalf("reloading the unchanged corpus: %v", err)
	}
	ix.Close()

	if _, err := Open(context.Background(), subset(t, 10), Options{Dir: dir, Guard: guard}); !errors.Is(err, refused) {
		t.Fatalf("Open over a bigger live index = %v, want the guard's error", err)
	}
	if got := indexDirs(t, dir); !slices.Equal(got, []string{live}) || readCurrent(dir) != live {
		t.Errorf("after a refused Open dirs %v, CURRENT %q; want only %q", got, readCurrent(dir), live)
	}
	if want := []int{len(full.Papers), len(full.Papers)}; !slices.Equal(asked, want) {
		t.Errorf("guard asked with %v, want %v", asked, want)
	}
	ix = openT(t, full, Options{Dir: dir, Guard: guard})
	if ix.Built() {
		t.Error("the kept index was rebuilt instead of reopened")
	}
}
