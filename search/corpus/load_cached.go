package corpus

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
)

// LoadFilesCached is LoadFilesLimited with a snapshot of the loaded corpus
// kept in cacheDir, so that a start with unchanged files reads, parses and
// cleans no corpus file. The snapshot serves when the patterns expand to
// the same files and every file the load read (and every metadata.tsv it
// looked for) still has its recorded size and modification time, or, for a
// file whose size or time changed, still has its recorded SHA-256: only
// changed files are read. Otherwise, or when the limits or this build of
// paperbot differ, the files are loaded as by LoadFilesLimited and the
// snapshot replaced (written to a temporary file and renamed, so a crash
// leaves the old snapshot or none). A missing or damaged snapshot is a
// cache miss, never an error; failing to write one is not an error either
// (the next call loads again). cacheDir "" means no cache. fromCache
// reports whether the snapshot served. Safe for concurrent use, also by
// several processes sharing cacheDir.
func LoadFilesCached(patterns []string, lim Limits, cacheDir string) (c *Corpus, fromCache bool, err error) {
	if cacheDir == "" {
		c, err = LoadFilesLimited(patterns, lim)
		return c, false, err
	}
	names, err := expand(diskSource{}, patterns)
	if err != nil {
		return nil, false, err
	}
	key := snapshotKey(lim)
	path := filepath.Join(cacheDir, snapshotFile)
	if c := readSnapshot(path, key, names); c != nil {
		return c, true, nil
	}
	src := &stampingSource{}
	l := &loader{src: src, lim: lim}
	for _, name := range names {
		if err := l.loadFile(name); err != nil {
			return nil, false, err
		}
	}
	if c, err = l.corpus(names); err != nil {
		return nil, false, err
	}
	_ = writeSnapshot(path, snapshotHeader{Key: key, Names: names, Files: src.stamps}, c)
	return c, false, nil
}

// snapshotFile, in the cache directory, holds a header (what the corpus was
// loaded from) and the corpus.
const snapshotFile = "corpus.snapshot"

// tmpSuffix ends the name of a snapshot being written (then renamed).
const tmpSuffix = ".tmp"

// IsSnapshotTemp reports whether name is that of a snapshot file being
// written ("corpus.snapshot-*.tmp"), which a crash can leave behind.
func IsSnapshotTemp(name string) bool {
	return strings.HasPrefix(name, snapshotFile+"-") && strings.HasSuffix(name, tmpSuffix)
}

// snapshotVersion changes whenever loading or cleaning would give other
// papers from the same files, or the snapshot layout changes. Builds from
// another commit invalidate snapshots too (see snapshotKey), so forgetting
// to bump it only matters within one commit.
const snapshotVersion = "s2"

type snapshotHeader struct {
	Key   string      `json:"key"`
	Names []string    `json:"names"` // the expanded patterns
	Files []fileStamp `json:"files"` // every file read or looked for
}

// snapshotKey identifies the loader: snapshot layout, limits, the commit
// paperbot was built from and the executable itself (size and time), so a
// rebuilt binary (go run, a build from an uncommitted tree) never trusts a
// snapshot its predecessor wrote: a new binary costs one full load.
func snapshotKey(lim Limits) string {
	key := fmt.Sprintf("%s max_abstract=%d", snapshotVersion, lim.maxAbstract())
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" || s.Key == "vcs.modified" {
				key += " " + s.Key + "=" + s.Value
			}
		}
	}
	if exe, err := os.Executable(); err == nil {
		if fi, err := os.Stat(exe); err == nil {
			key += fmt.Sprintf(" exe=%d@%d", fi.Size(), fi.ModTime().UnixNano())
		}
	}
	return key
}

// readSnapshot returns the snapshot's corpus if it is still the corpus of
// names, nil otherwise. The body is read only once the header matches.
func readSnapshot(path, key string, names []string) *Corpus {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil
	}
	var n uint64
	if err := binary.Read(f, binary.LittleEndian, &n); err != nil || n > uint64(fi.Size())-8 {
		return nil
	}
	hb := make([]byte, n)
	if _, err := io.ReadFull(f, hb); err != nil {
		return nil
	}
	var h snapshotHeader
	if json.Unmarshal(hb, &h) != nil || h.Key != key || !slices.Equal(h.Names, names) {
		return nil
	}
	for _, s := range h.Files {
		if !s.unchanged() {
			return nil
		}
	}
	body := make([]byte, fi.Size()-8-int64(n))
	if _, err := io.ReadFull(f, body); err != nil {
		return nil
	}
	c, err := decodeCorpus(body)
	if err != nil || len(c.Papers) == 0 {
		return nil
	}
	return c
}

// writeSnapshot writes the header and c to path atomically.
func writeSnapshot(path string, h snapshotHeader, c *Corpus) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	hb, err := json.Marshal(h)
	if err != nil {
		return err
	}
	buf := binary.LittleEndian.AppendUint64(nil, uint64(len(hb)))
	buf = appendCorpus(append(buf, hb...), c)
	// A temp file of its own: two processes loading at once each write a
	// complete snapshot, and the last rename wins.
	f, err := os.CreateTemp(filepath.Dir(path), snapshotFile+"-*"+tmpSuffix)
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(buf)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		_ = os.Remove(tmp)
	}
	return err
}
