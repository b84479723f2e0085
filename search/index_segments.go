package search

import (
	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
)

// Segments returns the number of segments of the live bleve index, 0 once
// closed and -1 when the index does not say. Query time grows with it: every
// segment is searched separately.
func (ix *Index) Segments() int {
	st, release, err := ix.live()
	if err != nil {
		return 0
	}
	defer release()
	return SegmentCount(st.bi)
}

// SegmentCount is the number of segments at the root of a scorch index, in
// memory and on disk, or -1 for another kind of index (benchmarks compare
// paperbot's index with plain bleve's by it).
func SegmentCount(bi bleve.Index) int {
	adv, err := bi.Advanced()
	if err != nil {
		return -1
	}
	s, ok := adv.(*scorch.Scorch)
	if !ok {
		return -1
	}
	m := s.StatsMap()
	file, _ := m["TotFileSegmentsAtRoot"].(uint64)
	mem, _ := m["TotMemorySegmentsAtRoot"].(uint64)
	return int(file + mem)
}
