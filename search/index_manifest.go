package search

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

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
	var h corpus.Hasher
	for _, e := range m {
		h.Add(corpus.HashEntry{ID: e.ID, Content: e.Content})
	}
	return h.Sum()
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

// manifest reads the live index's manifest: from its file, or from the
// internal storage of an index in memory (or built before the file).
func (s *state) manifest() (manifest, error) {
	if s.meta.Manifest == "" {
		b, err := s.bi.GetInternal([]byte(manifestKey))
		if err != nil {
			return nil, fmt.Errorf("read paper manifest: %w", err)
		}
		return decodeManifest(b)
	}
	b, err := os.ReadFile(filepath.Join(s.dir, s.meta.Manifest))
	if err != nil {
		return nil, fmt.Errorf("read paper manifest: %w", err)
	}
	return decodeManifest(b)
}

// manifestPrefix starts the names of manifest files in an index directory.
const manifestPrefix = "paperbot-manifest-"

// writeManifest writes m to a new file in dir, synced, and returns its name.
func writeManifest(dir string, m manifest) (string, error) {
	return writeSidecar(dir, manifestPrefix, "paper manifest", m.encode())
}

// writeSidecar writes b to a new file in dir named prefix and the time,
// synced with its directory, and returns its name. what names the data in
// errors.
func writeSidecar(dir, prefix, what string, b []byte) (string, error) {
	name := prefix + strconv.FormatInt(time.Now().UnixNano(), 36)
	path := filepath.Join(dir, name)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return "", fmt.Errorf("write %s: %w", what, err)
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = syncDir(dir)
	}
	if err != nil {
		_ = os.Remove(path)
		return "", fmt.Errorf("write %s: %w", what, err)
	}
	return name, nil
}

// removeManifest deletes manifest file name from dir, if there is one.
func removeManifest(dir, name string) {
	if dir != "" && name != "" {
		_ = os.Remove(filepath.Join(dir, name))
	}
}

// removeStaleSidecars deletes the files in dir named with prefix but
// keep: those of batches a crash interrupted.
func removeStaleSidecars(dir, prefix, keep string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if n := e.Name(); strings.HasPrefix(n, prefix) && n != keep {
			_ = os.Remove(filepath.Join(dir, n))
		}
	}
}
