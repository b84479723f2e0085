package search

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// LiveCorpus describes the corpus of a live index, for Options.Guard.
type LiveCorpus struct {
	Papers  int // papers in the live index
	Skipped int // records skipped when its corpus was loaded
}

// corpusStatsFile, inside each index directory, records the LiveCorpus of
// its corpus: the index itself knows its papers but not what was skipped.
const corpusStatsFile = "paperbot-corpus.json"

type corpusStats struct {
	Papers  int `json:"papers"`
	Skipped int `json:"skipped"`
}

func writeCorpusStats(dir string, papers, skipped int) error {
	b, err := json.Marshal(corpusStats{Papers: papers, Skipped: skipped})
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, corpusStatsFile), b, 0o644)
}

// readSkipped returns the skipped count recorded in an index directory; 0
// when unrecorded (an index from an older paperbot), which errs on the side
// of refusing.
func readSkipped(dir string) int {
	b, err := os.ReadFile(filepath.Join(dir, corpusStatsFile))
	if err != nil {
		return 0
	}
	var s corpusStats
	if json.Unmarshal(b, &s) != nil {
		return 0
	}
	return s.Skipped
}
