package corpus

import (
	"encoding/json"
	"slices"
)

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
	l := &loader{src: src, lim: lim}
	for _, name := range names {
		if err := l.loadFile(name); err != nil {
			return nil, nil, err
		}
	}
	c, err := l.corpus(names)
	if err != nil {
		return nil, nil, err
	}
	stamp, err := json.Marshal(snapshotHeader{Key: snapshotKey(lim), Names: names, Files: src.stamps})
	if err != nil {
		return nil, nil, err
	}
	return c, stamp, nil
}

// Unchanged reports whether loading patterns with lim would read the same
// files with the same content as the load that made stamp: the patterns
// expand to the same files, and every file read (or looked for) has its
// recorded size and modification time or, failing that, its recorded
// SHA-256; and the limits and paperbot build are the same. Only files whose
// size or time changed are read. A stamp that cannot be read is changed.
func Unchanged(stamp []byte, patterns []string, lim Limits) bool {
	var h snapshotHeader
	if len(stamp) == 0 || json.Unmarshal(stamp, &h) != nil || h.Key != snapshotKey(lim) {
		return false
	}
	names, err := expand(diskSource{}, patterns)
	if err != nil || !slices.Equal(names, h.Names) {
		return false
	}
	for _, s := range h.Files {
		if !s.unchanged() {
			return false
		}
	}
	return true
}
