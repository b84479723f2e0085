package corpus

import (
	"sync"
	"testing"

	"github.com/paperbot/paperbot/seeds"
)

var (
	seedOnce sync.Once
	seedCorp *Corpus
	seedErr  error
)

// seedCorpus returns the embedded seeds, loaded once and shared by the
// tests (which must not change it).
func seedCorpus(t testing.TB) *Corpus {
	t.Helper()
	seedOnce.Do(func() { seedCorp, seedErr = LoadFS(seeds.FS, "*.txt") })
	if seedErr != nil {
		t.Fatalf("load seeds: %v", seedErr)
	}
	return seedCorp
}
