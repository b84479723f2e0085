package corpus

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
)

// stampVersion changes whenever loading or cleaning would give other
// papers from the same files, or the stamp layout changes. Builds from
// another commit invalidate stamps too (see stampKey), so forgetting to
// bump it only matters within one commit.
const stampVersion = "s3"

type stampHeader struct {
	Key   string      `json:"key"`
	Names []string    `json:"names"` // the expanded patterns
	Files []fileStamp `json:"files"` // every file read or looked for
}

// stampKey identifies the loader: stamp layout, limits, the commit
// paperbot was built from and the executable itself (size and time), so a
// rebuilt binary (go run, a build from an uncommitted tree) never trusts a
// stamp its predecessor wrote: a new binary costs one full load.
func stampKey(lim Limits) string {
	key := fmt.Sprintf("%s max_abstract=%d", stampVersion, lim.maxAbstract())
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

// LoadFilesStamped is LoadFilesLimited that also returns a stamp of what
// was read: the expanded patterns, every file's size, modification time
// and SHA-256, the limits and this build of paperbot. An index kept with
// the stamp can later be served without loading the corpus while
// Unchanged says the stamp holds.
func LoadFilesStamped(patterns []string, lim Limits) (*Corpus, []byte, error) {
	names, err := expand(diskSource{}, patterns)
	if err != nil {
		return nil, nil, err
	}
	src := &stampingSource{}
	c, err := loadCorpus(src, names, lim)
	if err != nil {
		return nil, nil, err
	}
	stamp, err := src.stamp(names, lim)
	if err != nil {
		return nil, nil, err
	}
	return c, stamp, nil
}

// stamp is the stamp of a load through s of the files names.
func (s *stampingSource) stamp(names []string, lim Limits) ([]byte, error) {
	return json.Marshal(stampHeader{Key: stampKey(lim), Names: names, Files: s.stamps})
}

// Unchanged reports whether loading patterns with lim would read the same
// files with the same content as the load that made stamp: the patterns
// expand to the same files, and every file read (or looked for) has its
// recorded size and modification time or, failing that, its recorded
// SHA-256; and the limits and paperbot build are the same. Only files whose
// size or time changed (or that were racy, see fileStamp) are read. A stamp
// that cannot be read is changed. When some file had to be hashed and was
// unchanged, refreshed is a new stamp with its current size and time (and
// no longer racy once it is old enough), so the next check need not read
// it; nil otherwise.
func Unchanged(stamp []byte, patterns []string, lim Limits) (ok bool, refreshed []byte) {
	var h stampHeader
	if len(stamp) == 0 || json.Unmarshal(stamp, &h) != nil || h.Key != stampKey(lim) {
		return false, nil
	}
	names, err := expand(diskSource{}, patterns)
	if err != nil || !slices.Equal(names, h.Names) {
		return false, nil
	}
	fresh := false
	for i, s := range h.Files {
		same, hashed := s.unchanged()
		if !same {
			return false, nil
		}
		if hashed != nil {
			if s, ok := s.restamp(hashed); ok {
				h.Files[i], fresh = s, true
			}
		}
	}
	if !fresh {
		return true, nil
	}
	b, err := json.Marshal(h)
	if err != nil {
		return true, nil
	}
	return true, b
}
