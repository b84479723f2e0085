package search

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// subset is a corpus of the first n seed papers (a different corpus hash).
func subset(t *testing.T, n int) *Corpus {
	t.Helper()
	_, c := seedIndex(t)
	return &Corpus{Papers: slices.Clone(c.Papers[:n])}
}

func openT(t *testing.T, c *Corpus, opts Options) *Index {
	t.Helper()
	ix, err := Open(context.Background(), c, opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { _ = ix.Close() })
	return ix
}

// papersIndex indexes a test's own papers in memory, each headed by its
// title.
func papersIndex(t *testing.T, papers []Paper) *Index {
	t.Helper()
	for i := range papers {
		if papers[i].Headline == "" {
			papers[i].Headline = papers[i].Title
		}
	}
	return openT(t, &Corpus{Papers: papers}, Options{})
}

// indexDirs lists the index directories (and leftovers) in dir.
func indexDirs(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		if strings.HasPrefix(e.Name(), indexPrefix) {
			out = append(out, e.Name())
		}
	}
	return out
}

func mustFind(t *testing.T, ix *Index, q string) *Results {
	t.Helper()
	res, err := ix.Search(context.Background(), Request{Text: q})
	if err != nil {
		t.Fatalf("Search(%q): %v", q, err)
	}
	if res.NoMatch || len(res.Results) == 0 {
		t.Fatalf("Search(%q) found nothing", q)
	}
	return res
}

func TestOpenDirReusesIndex(t *testing.T) {
	_, c := seedIndex(t)
	dir := t.TempDir()
	var calls [][2]int
	ix, err := Open(context.Background(), c, Options{Dir: dir, BatchSize: 20, Progress: func(done, total int) {
		calls = append(calls, [2]int{done, total})
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !ix.Built() {
		t.Error("first open did not build")
	}
	// Batches finish in any order (two at a time): progress rises by a
	// batch at a time from 0 to every paper.
	n := len(c.Papers)
	ok := len(calls) == 4 && calls[0] == [2]int{0, n} && calls[3] == [2]int{n, n}
	for i := 1; ok && i < len(calls); i++ {
		d := calls[i][0] - calls[i-1][0]
		ok = calls[i][1] == n && (d == 20 || d == n%20)
	}
	if !ok {
		t.Errorf("progress calls %v, want 0 to %d in batches of 20", calls, n)
	}
	live := readCurrent(dir)
	if got := indexDirs(t, dir); !slices.Equal(got, []string{live}) {
		t.Errorf("index dirs %v, CURRENT %q", got, live)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}

	calls = nil
	ix = openT(t, c, Options{Dir: dir, Progress: func(done, total int) { calls = append(calls, [2]int{done, total}) }})
	if ix.Built() || len(calls) > 0 {
		t.Errorf("reopening an unchanged corpus rebuilt the index (progress %v)", calls)
	}
	mustFind(t, ix, "Kramers-Wannier duality")
	if got := readCurrent(dir); got != live {
		t.Errorf("CURRENT changed from %q to %q", live, got)
	}
}

func TestOpenDirRebuildsOnChange(t *testing.T) {
	_, c := seedIndex(t)
	dir := t.TempDir()
	ix := openT(t, c, Options{Dir: dir})
	old := readCurrent(dir)
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}

	// A few papers fewer: changed in place (index_apply.go).
	small := subset(t, 10)
	ix = openT(t, small, Options{Dir: dir})
	if !ix.Built() {
		t.Fatal("a changed corpus was served as it was")
	}
	if got := ix.Stats().Papers; got != 10 {
		t.Errorf("%d papers, want 10", got)
	}
	if ix.CorpusHash() != small.Hash() {
		t.Error("the changed index does not hold the new corpus")
	}
	live := readCurrent(dir)
	if live != old {
		t.Errorf("CURRENT names %q, want the index changed in place %q", live, old)
	}
	if got := indexDirs(t, dir); !slices.Equal(got, []string{live}) {
		t.Errorf("index dirs after the change %v, want only %q", got, live)
	}
}

func TestOpenDirAfterCrash(t *testing.T) {
	_, c := seedIndex(t)
	dir := t.TempDir()
	ix := openT(t, c, Options{Dir: dir})
	live := readCurrent(dir)
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	// A build of another corpus died half way: its .tmp directory and a
	// half-written CURRENT.tmp are left behind.
	tmp := filepath.Join(dir, indexPrefix+mappingVersion+"-0123456789abcdef"+tmpSuffix)
	if err := os.MkdirAll(filepath.Join(tmp, "store"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "store", "000000000002.zap"), []byte("half a segment"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, currentFile+tmpSuffix), []byte("idx-"), 0o644); err != nil {
		t.Fatal(err)
	}

	ix = openT(t, c, Options{Dir: dir})
	if ix.Built() {
		t.Error("leftovers of a crashed build made the old index rebuild")
	}
	mustFind(t, ix, "Kramers-Wannier duality")
	if got := indexDirs(t, dir); !slices.Equal(got, []string{live}) {
		t.Errorf("index dirs %v, want the stale .tmp removed", got)
	}
	if _, err := os.Stat(filepath.Join(dir, currentFile+tmpSuffix)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("CURRENT.tmp not removed: %v", err)
	}
}

func TestOpenDirDamagedIndex(t *testing.T) {
	_, c := seedIndex(t)
	dir := t.TempDir()
	ix := openT(t, c, Options{Dir: dir})
	live := filepath.Join(dir, readCurrent(dir))
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(live, "index_meta.json"), []byte("{garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	ix = openT(t, c, Options{Dir: dir})
	if !ix.Built() {
		t.Error("a damaged index was used instead of rebuilt")
	}
	mustFind(t, ix, "Kramers-Wannier duality")
}

func TestOpenDirInUse(t *testing.T) {
	_, c := seedIndex(t)
	dir := t.TempDir()
	openT(t, c, Options{Dir: dir})
	start := time.Now()
	_, err := Open(context.Background(), c, Options{Dir: dir})
	if err == nil || !strings.Contains(Message(err)+err.Error(), "in use") {
		t.Errorf("second open of a live index: %v, want an in-use error", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("second open waited %v", d)
	}
}

func TestReloadInterruptedKeepsOldIndex(t *testing.T) {
	_, c := seedIndex(t)
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ix := openT(t, c, Options{Dir: dir, BatchSize: 5, Progress: func(done, total int) {
		if total != len(c.Papers) {
			cancel() // "crash" in the middle of changing to the new corpus
		}
	}})
	live := readCurrent(dir)

	if err := ix.Reload(ctx, subset(t, 10)); err == nil {
		t.Fatal("an interrupted reload reported success")
	}
	if got := ix.Stats().Papers; got != len(c.Papers) {
		t.Errorf("after a failed reload %d papers, want the old %d", got, len(c.Papers))
	}
	mustFind(t, ix, "Kramers-Wannier duality")
	if got := indexDirs(t, dir); !slices.Equal(got, []string{live}) || readCurrent(dir) != live {
		t.Errorf("after a failed reload dirs %v, CURRENT %q; want only %q", got, readCurrent(dir), live)
	}
}

func TestReloadSwapsUnderLoad(t *testing.T) {
	for _, name := range []string{"memory", "disk"} {
		t.Run(name, func(t *testing.T) {
			_, c := seedIndex(t)
			opts := Options{}
			if name == "disk" {
				opts.Dir = t.TempDir()
			}
			ix := openT(t, c, opts)
			ctx := context.Background()

			var stop atomic.Bool
			var searches atomic.Int64
			errs := make(chan error, 8)
			var wg sync.WaitGroup
			for range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for !stop.Load() {
						// Every corpus below holds the first seed paper.
						res, err := ix.Search(ctx, Request{Text: "molecular dynamics simulations"})
						if err != nil {
							errs <- err
							return
						}
						if len(res.Results) == 0 {
							errs <- errors.New("no results during reload")
							return
						}
						searches.Add(1)
					}
				}()
			}
			for _, n := range []int{10, 30, len(c.Papers)} {
				if err := ix.Reload(ctx, subset(t, n)); err != nil {
					t.Fatalf("Reload(%d papers): %v", n, err)
				}
				if got := ix.Stats().Papers; got != n {
					t.Errorf("after reload %d papers, want %d", got, n)
				}
			}
			// Let the searchers run against the final index too.
			deadline := time.Now().Add(5 * time.Second)
			for at := searches.Load(); searches.Load() < at+4 && time.Now().Before(deadline); {
				runtime.Gosched()
			}
			stop.Store(true)
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Errorf("search during reload: %v", err)
			}
			if searches.Load() == 0 {
				t.Error("no search completed")
			}
			if opts.Dir != "" {
				if got := indexDirs(t, opts.Dir); len(got) != 1 || got[0] != readCurrent(opts.Dir) {
					t.Errorf("index dirs after reloads %v", got)
				}
			}
		})
	}
}

func TestReloadUnchangedIsNoop(t *testing.T) {
	_, c := seedIndex(t)
	calls := 0
	ix := openT(t, c, Options{Progress: func(int, int) { calls++ }})
	calls = 0
	if err := ix.Reload(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	if calls != 0 {
		t.Errorf("reloading the same corpus re-indexed it (%d progress calls)", calls)
	}
}

func TestClosed(t *testing.T) {
	ix, err := Open(context.Background(), subset(t, 5), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	if err := ix.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := ix.Search(context.Background(), Request{Text: "graphs"}); err == nil {
		t.Error("Search after Close succeeded")
	}
	if _, err := ix.Get("x"); err == nil {
		t.Error("Get after Close succeeded")
	}
	if err := ix.Reload(context.Background(), subset(t, 6)); err == nil {
		t.Error("Reload after Close succeeded")
	}
}

func TestOpenRejectsBadCorpus(t *testing.T) {
	c := subset(t, 3)
	c.Papers[2].ID = c.Papers[0].ID
	if _, err := Open(context.Background(), c, Options{}); KindOf(err) != Invalid {
		t.Errorf("repeated IDs: %v, want invalid", err)
	}
	if _, err := Open(context.Background(), nil, Options{}); KindOf(err) != Invalid {
		t.Errorf("nil corpus: %v, want invalid", err)
	}
	empty := openT(t, &Corpus{}, Options{})
	res, err := empty.Search(context.Background(), Request{Text: "graphs"})
	if err != nil || !res.NoMatch {
		t.Errorf("empty corpus search: %+v, %v", res, err)
	}
}

// A second process opening the directory with another corpus (paperbot
// index while the bot runs) must not build there and delete the live index.
func TestOpenDirInUseByOtherCorpusLeavesLiveIndex(t *testing.T) {
	_, c := seedIndex(t)
	dir := t.TempDir()
	live := openT(t, c, Options{Dir: dir})
	other := &Corpus{Papers: c.Papers[:10]}
	_, err := Open(context.Background(), other, Options{Dir: dir})
	if !errors.Is(err, ErrInUse) {
		t.Fatalf("Open with another corpus on a live directory = %v, want ErrInUse", err)
	}
	mustFind(t, live, "Kramers-Wannier duality")
	if n := len(indexDirs(t, dir)); n != 1 {
		t.Errorf("index directories after the refused open: %v, want only the live one", indexDirs(t, dir))
	}
	if err := live.Close(); err != nil {
		t.Fatal(err)
	}
	ix := openT(t, other, Options{Dir: dir}) // free once the owner closed
	if got := ix.Stats().Papers; got != 10 {
		t.Errorf("papers after reopening with the new corpus = %d, want 10", got)
	}
}

// TestHalfWrittenSnapshotsRemoved: an old temporary snapshot (a crash while
// writing) is removed when the index directory is opened; a young one may be
// another process's and stays.
// Older paperbots kept a corpus snapshot in the index directory; the
// index holds the papers now, so snapshots are removed.
func TestOldSnapshotsRemoved(t *testing.T) {
	_, c := seedIndex(t)
	dir := t.TempDir()
	for _, name := range []string{"corpus.snapshot", "corpus.snapshot-2" + tmpSuffix} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("papers"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	openT(t, c, Options{Dir: dir})
	for _, name := range []string{"corpus.snapshot", "corpus.snapshot-2" + tmpSuffix} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s was kept", name)
		}
	}
}
