package search

// LiveCorpus describes the corpus of a live index, for Options.Guard.
type LiveCorpus struct {
	Papers  int // papers in the live index
	Skipped int // records skipped when its corpus was loaded
}
