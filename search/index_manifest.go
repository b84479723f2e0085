package search

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"

	"github.com/paperbot/paperbot/search/corpus"
)

// manifest lists every indexed paper's ID, content hash and when it was
// first seen, sorted by ID: 32 bytes or so a paper, read only to tell what a
// new corpus or a batch changes (and, for a rebuild, when the papers it
// keeps were first seen), and the source of the corpus hash (corpus.HashOf).
type manifest []manifestEntry

type manifestEntry struct {
	ID        string
	Content   [16]byte
	FirstSeen int64 // Unix nanoseconds; 0 when unknown
}

func (e manifestEntry) firstSeen() time.Time {
	if e.FirstSeen == 0 {
		return time.Time{}
	}
	return time.Unix(0, e.FirstSeen).UTC()
}

func entryOf(p *Paper) manifestEntry {
	e := manifestEntry{ID: p.ID, Content: corpus.ContentHash(p)}
	if !p.FirstSeen.IsZero() {
		e.FirstSeen = p.FirstSeen.UnixNano()
	}
	return e
}

func compareEntries(a, b manifestEntry) int { return strings.Compare(a.ID, b.ID) }

// pos returns the position of id's entry.
func (m manifest) pos(id string) (int, bool) {
	return slices.BinarySearchFunc(m, id, func(e manifestEntry, id string) int { return strings.Compare(e.ID, id) })
}

// find returns the entry of id.
func (m manifest) find(id string) (manifestEntry, bool) {
	if i, ok := m.pos(id); ok {
		return m[i], true
	}
	return manifestEntry{}, false
}

// inherit gives m's papers that have no first-seen time the one prior
// (the live index's manifest) has for the same ID: a rebuild must not make
// old papers new to the digests.
func (m manifest) inherit(prior manifest) {
	for i := range m {
		if m[i].FirstSeen == 0 {
			if e, ok := prior.find(m[i].ID); ok {
				m[i].FirstSeen = e.FirstSeen
			}
		}
	}
}

// with returns m with set replacing or adding entries and del removed; m is
// not modified.
func (m manifest) with(set []manifestEntry, del []string) manifest {
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
	slices.SortFunc(out, compareEntries)
	return out
}

func (m manifest) hash() string {
	entries := make([]corpus.HashEntry, len(m))
	for i, e := range m {
		entries[i] = corpus.HashEntry{ID: e.ID, Content: e.Content}
	}
	return corpus.HashOf(entries)
}

// manifestV2 starts a manifest with first-seen times. The first manifests
// had none, and cannot start with it: their first byte is an ID's length.
const manifestV2 = "\x00f"

func (m manifest) encode() []byte {
	out := make([]byte, 0, len(manifestV2)+len(m)*(corpus.IDLen+20))
	out = append(out, manifestV2...)
	for _, e := range m {
		out = binary.AppendUvarint(out, uint64(len(e.ID)))
		out = append(out, e.ID...)
		out = append(out, e.Content[:]...)
		out = binary.AppendUvarint(out, uint64(e.FirstSeen))
	}
	return out
}

func decodeManifest(b []byte) (manifest, error) {
	var m manifest
	damaged := fmt.Errorf("damaged paper manifest")
	times := len(b) >= len(manifestV2) && string(b[:len(manifestV2)]) == manifestV2
	if times {
		b = b[len(manifestV2):]
	}
	for len(b) > 0 {
		n, k := binary.Uvarint(b)
		if k <= 0 || uint64(len(b)-k) < n+16 {
			return nil, damaged
		}
		e := manifestEntry{ID: string(b[k : k+int(n)])}
		copy(e.Content[:], b[k+int(n):])
		b = b[k+int(n)+16:]
		if times {
			t, k := binary.Uvarint(b)
			if k <= 0 {
				return nil, damaged
			}
			e.FirstSeen = int64(t)
			b = b[k:]
		}
		m = append(m, e)
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
