package search

import (
	"fmt"
	"os"
	"runtime"

	mmap "github.com/blevesearch/mmap-go"
)

// mapVectors reads a vectors file by mapping it into memory: the codes are
// used where the file is, outside the Go heap, so they neither count twice
// against the collector's target nor get copied. The mapping is released
// when the vectors are no longer reachable.
func mapVectors(path string) (*paperVectors, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() == 0 {
		return nil, errDamagedVectors
	}
	m, err := mmap.Map(f, mmap.RDONLY, 0)
	if err != nil {
		// Mapping is an optimisation: read the file instead.
		b, rerr := os.ReadFile(path)
		if rerr != nil {
			return nil, fmt.Errorf("%w (mapping it: %w)", rerr, err)
		}
		return decodeVectors(b)
	}
	pv, err := decodeVectors(m)
	if err != nil {
		_ = m.Unmap()
		return nil, err
	}
	runtime.AddCleanup(pv, func(m mmap.MMap) { _ = m.Unmap() }, m)
	return pv, nil
}
