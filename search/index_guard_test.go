package search

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2"
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

// TestGuardAfterUpgrade: when an index of an older format is replaced (an
// upgrade), the guard is told what that index's load skipped, so the same
// files skipping the same record are no news; an index too old to say is
// judged on its papers alone.
func TestGuardAfterUpgrade(t *testing.T) {
	_, seeds := seedIndex(t)
	withSkip := &Corpus{Papers: seeds.Papers, Skipped: 1, Problems: []string{"seeds.txt:3: no abstract; skipped"}}
	for _, tc := range []struct {
		name        string
		meta        func(m map[string]any)
		wantSkipped int // the live skipped count the guard must see
	}{
		// The old load skipped more than this one: the guard must see the
		// old count, not this load's.
		{"older format", func(m map[string]any) { m["version"] = "m0"; m["skipped"] = 3 }, 3},
		{"older format, skipped unrecorded", func(m map[string]any) { m["version"] = "m0"; delete(m, "skipped") }, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			openT(t, withSkip, Options{Dir: dir}).Close()
			ageIndex(t, dir, tc.meta)
			var seen []LiveCorpus
			guard := func(live LiveCorpus, next LoadReport) error {
				seen = append(seen, live)
				if next.Skipped > live.Skipped {
					return errors.New("refused: more records skipped")
				}
				return nil
			}
			ix := openT(t, withSkip, Options{Dir: dir, Guard: guard})
			if !ix.Built() {
				t.Fatal("the older index was reused, not rebuilt")
			}
			if len(seen) != 1 || seen[0].Skipped != tc.wantSkipped || seen[0].Papers != len(seeds.Papers) {
				t.Errorf("guard saw %+v, want one call with %d papers and %d skipped", seen, len(seeds.Papers), tc.wantSkipped)
			}
		})
	}
}

// ageIndex makes dir's live index look written by an older paperbot: meta
// edits its metadata, and the directory takes the older version's name.
func ageIndex(t *testing.T, dir string, meta func(map[string]any)) {
	t.Helper()
	name := readCurrent(dir)
	path := filepath.Join(dir, name)
	bi, err := bleve.OpenUsing(path, runtimeConfig())
	if err != nil {
		t.Fatal(err)
	}
	b, err := bi.GetInternal([]byte(metaKey))
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]any{}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	meta(m)
	if b, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if err := bi.SetInternal([]byte(metaKey), b); err != nil {
		t.Fatal(err)
	}
	if err := bi.Close(); err != nil {
		t.Fatal(err)
	}
	old := indexPrefix + "m0-" + strings.TrimPrefix(name, indexPrefix+mappingVersion+"-")
	if err := os.Rename(path, filepath.Join(dir, old)); err != nil {
		t.Fatal(err)
	}
	if err := writeCurrent(dir, old); err != nil {
		t.Fatal(err)
	}
}
