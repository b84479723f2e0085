package search

import (
	"context"
	"path/filepath"
	"testing"
)

// TestBuildCompactsSegments builds the seeds in batches of 5 (a dozen
// segments in memory) and expects one segment on disk, in this process and
// in the next one to open the directory.
func TestBuildCompactsSegments(t *testing.T) {
	_, c := seedIndex(t)
	mem := openT(t, c, Options{BatchSize: 5})
	if n := mem.Segments(); n < 10 {
		t.Fatalf("in memory, batches of 5 left %d segments; want one per batch", n)
	}
	dir := t.TempDir()
	ix, err := Open(context.Background(), c, Options{Dir: dir, BatchSize: 5})
	if err != nil {
		t.Fatal(err)
	}
	if n := ix.Segments(); n != compactTarget {
		t.Errorf("after the build: %d segments, want %d", n, compactTarget)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	re := openT(t, c, Options{Dir: dir})
	if re.Built() {
		t.Fatal("the index was rebuilt instead of reopened")
	}
	if n := re.Segments(); n != compactTarget {
		t.Errorf("reopened: %d segments, want %d", n, compactTarget)
	}
	res, err := re.Search(context.Background(), Request{Text: "kv cache"})
	if err != nil || len(res.Results) == 0 {
		t.Fatalf("search after compaction: %v, %d results", err, len(res.Results))
	}
	zaps, _ := filepath.Glob(filepath.Join(dir, indexName(c.Hash()), "*.zap"))
	if len(zaps) > 2 {
		t.Errorf("%d segment files left on disk; merged-away segments should be removed", len(zaps))
	}
}
