package corpus

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// LoadFS loads the corpus files of fsys that match patterns (fs.Glob syntax),
// for example LoadFS(seeds.FS, "*.txt"). See LoadFiles for formats and errors.
func LoadFS(fsys fs.FS, patterns ...string) (*Corpus, error) {
	return load(fsSource{fsys}, patterns, Limits{})
}

// LoadFiles loads the corpus files named by patterns: paths or globs
// (filepath.Glob syntax) on disk. Callers split a comma-separated setting
// themselves. Each file's format is recognised by its content and extension:
//
//   - JSON array, JSON Lines, or one JSON object holding an array of paper
//     records (see jsonFields for the field names recognised);
//   - tab-separated values, with a header row naming the columns, or with no
//     header in a known layout (see tsvLayouts);
//   - comma-separated values with a header row (.csv without tabs);
//   - text (.txt): a header line naming the collection, which becomes the
//     venue, then one abstract per blank-line-separated paragraph; a
//     metadata.tsv beside it adds titles, authors and URLs (see sidecar).
//
// Files are read in sorted order whatever the order of patterns, so the
// result does not depend on it. The same paper loaded twice, recognised by
// its title or its abstract (compared in lower case, letters and digits
// only; stub abstracts under eight words do not count), is kept once, the
// first copy in file order: Corpus.Duplicates counts the others. Every paper
// gets an ID (see assignIDs). A pattern matching nothing, an unreadable
// file, an unknown format, a malformed JSON document or a file with no usable
// record is an *Error of Kind Invalid whose Msg names the file (and line or
// record). A bad record in an otherwise good file is skipped: Corpus.Skipped
// counts it and Corpus.Problems says where and why. Records with neither
// title nor abstract are skipped that way too; a paper with a title only is
// kept, found by its title, and reported in Corpus.Problems.
func LoadFiles(patterns []string) (*Corpus, error) {
	return load(diskSource{}, patterns, Limits{})
}

// LoadFilesLimited is LoadFiles with limits other than the defaults.
func LoadFilesLimited(patterns []string, lim Limits) (*Corpus, error) {
	return load(diskSource{}, patterns, lim)
}

const opLoad = "load corpus"

// source abstracts where corpus files come from: an fs.FS or the disk.
type fileSource interface {
	glob(pattern string) ([]string, error)
	isDir(name string) (bool, error)
	readFile(name string) ([]byte, error)
	// open opens a corpus file to read it once, front to back.
	open(name string) (io.ReadCloser, error)
	join(dir, name string) string
	dir(name string) string
	base(name string) string
}

type fsSource struct{ fsys fs.FS }

func (s fsSource) glob(p string) ([]string, error) { return fs.Glob(s.fsys, p) }
func (s fsSource) readFile(n string) ([]byte, error) {
	return fs.ReadFile(s.fsys, n)
}

// open reads the whole file: an fs.FS holds small corpora (the seeds).
func (s fsSource) open(n string) (io.ReadCloser, error) {
	data, err := s.readFile(n)
	if err != nil {
		return nil, err
	}
	return io.NopCloser(bytes.NewReader(data)), nil
}
func (s fsSource) isDir(n string) (bool, error) {
	fi, err := fs.Stat(s.fsys, n)
	return err == nil && fi.IsDir(), err
}
func (fsSource) join(d, n string) string { return path.Join(d, n) }
func (fsSource) dir(n string) string     { return path.Dir(n) }
func (fsSource) base(n string) string    { return path.Base(n) }

type diskSource struct{}

func (diskSource) glob(p string) ([]string, error)      { return filepath.Glob(p) }
func (diskSource) readFile(n string) ([]byte, error)    { return os.ReadFile(n) }
func (diskSource) open(n string) (io.ReadCloser, error) { return os.Open(n) }
func (diskSource) isDir(n string) (bool, error) {
	fi, err := os.Stat(n)
	return err == nil && fi.IsDir(), err
}
func (diskSource) join(d, n string) string { return filepath.Join(d, n) }
func (diskSource) dir(n string) string     { return filepath.Dir(n) }
func (diskSource) base(n string) string    { return filepath.Base(n) }

func load(src fileSource, patterns []string, lim Limits) (*Corpus, error) {
	names, err := expand(src, patterns)
	if err != nil {
		return nil, err
	}
	return loadCorpus(src, names, lim)
}

// loadCorpus loads the named files into memory.
func loadCorpus(src fileSource, names []string, lim Limits) (*Corpus, error) {
	mem := &memSink{}
	res, err := loadInto(src, names, lim, mem)
	if err != nil {
		return nil, err
	}
	for i := range mem.papers {
		mem.papers[i].ID = string(res.ids[i][:])
	}
	return &Corpus{Papers: mem.papers, Skipped: res.skipped, Problems: res.problems, Duplicates: res.duplicates, Files: names}, nil
}

// expand resolves patterns to a sorted list of distinct files.
func expand(src fileSource, patterns []string) ([]string, error) {
	var names []string
	given := 0
	for _, p := range patterns {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		given++
		if !strings.ContainsAny(p, "*?[") {
			dir, err := src.isDir(p)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				return nil, &Error{Op: opLoad, Kind: Invalid, Msg: "corpus file " + p + " does not exist", Err: err}
			case err != nil:
				return nil, unreadable(p, err)
			case dir:
				return nil, invalidf(opLoad, "%s is a directory: name its files, or a glob such as %s", p, src.join(p, "*.json"))
			}
			if src.base(p) != sidecarName {
				names = append(names, p)
			}
			continue
		}
		matches, err := src.glob(p)
		if err != nil {
			return nil, &Error{Op: opLoad, Kind: Invalid, Msg: "bad corpus pattern " + p, Err: err}
		}
		found := 0
		for _, m := range matches {
			if dir, _ := src.isDir(m); dir || src.base(m) == sidecarName {
				continue
			}
			names = append(names, m)
			found++
		}
		if found == 0 {
			return nil, invalidf(opLoad, "corpus pattern %s matches no file", p)
		}
	}
	if given == 0 {
		return nil, invalidf(opLoad, "no corpus files given")
	}
	if len(names) == 0 {
		return nil, invalidf(opLoad, "no corpus file given besides %s, which only describes the text files beside it", sidecarName)
	}
	slices.Sort(names)
	return slices.Compact(names), nil
}
