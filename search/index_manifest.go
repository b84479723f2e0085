package search

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2"

	"github.com/paperbot/paperbot/search/corpus"
)

// manifest lists every indexed paper's ID and content hash, sorted by ID:
// 24 bytes or so a paper, read only to tell what a new corpus or a batch
// changes, and the source of the corpus hash (corpus.HashOf).
type manifest []corpus.HashEntry

// find returns the entry of id.
func (m manifest) find(id string) (corpus.HashEntry, bool) {
	i, ok := slices.BinarySearchFunc(m, id, func(e corpus.HashEntry, id string) int { return strings.Compare(e.ID, id) })
	if !ok {
		return corpus.HashEntry{}, false
	}
	return m[i], true
}

// with returns m with set replacing or adding entries and del removed; m is
// not modified.
func (m manifest) with(set []corpus.HashEntry, del []string) manifest {
	drop := make(map[string]bool, len(set)+len(del))
	for _, e := range set {
		drop[e.ID] = true
	}
	for _, id := range del {
		drop[id] = true
	}
	out := make(manifest, 0, len(m)+len(set))
	for _, e := range m {
		if !drop[e.ID] {
			out = append(out, e)
		}
	}
	out = append(out, set...)
	slices.SortFunc(out, func(a, b corpus.HashEntry) int { return strings.Compare(a.ID, b.ID) })
	return out
}

func (m manifest) hash() string { return corpus.HashOf(m) }

func (m manifest) encode() []byte {
	out := make([]byte, 0, len(m)*(corpus.IDLen+17))
	for _, e := range m {
		out = binary.AppendUvarint(out, uint64(len(e.ID)))
		out = append(out, e.ID...)
		out = append(out, e.Content[:]...)
	}
	return out
}

func decodeManifest(b []byte) (manifest, error) {
	var m manifest
	for len(b) > 0 {
		n, k := binary.Uvarint(b)
		if k <= 0 || uint64(len(b)-k) < n+16 {
			return nil, fmt.Errorf("damaged paper manifest")
		}
		e := corpus.HashEntry{ID: string(b[k : k+int(n)])}
		copy(e.Content[:], b[k+int(n):])
		m = append(m, e)
		b = b[k+int(n)+16:]
	}
	return m, nil
}

func readManifest(bi bleve.Index) (manifest, error) {
	b, err := bi.GetInternal([]byte(manifestKey))
	if err != nil {
		return nil, fmt.Errorf("read paper manifest: %w", err)
	}
	return decodeManifest(b)
}
