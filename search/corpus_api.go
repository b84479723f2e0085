// Package search loads paper corpora (through package search/corpus),
// indexes them with bleve and answers queries and questions over them. It
// imports only bleve, search/corpus, fault and the standard library.
//
// A query runs through stages, each in a file of its own: Index.Search
// (search.go) lists them, candidates.go → rank.go → refuse.go → answer.go
// → package search/snippet.
package search

import (
	"context"
	"io/fs"

	"github.com/paperbot/paperbot/search/corpus"
)

// The corpus side (loading, cleaning, IDs, headlines) lives in package
// search/corpus, which imports no bleve; these names keep this package's
// API as it was.

type (
	// Paper is one paper of a corpus (corpus.Paper).
	Paper = corpus.Paper
	// Corpus is a loaded set of papers (corpus.Corpus).
	Corpus = corpus.Corpus
	// Limits bounds what a load reads (corpus.Limits).
	Limits = corpus.Limits
	// Spool is a loaded corpus whose papers wait in a temporary file
	// (corpus.Spool).
	Spool = corpus.Spool
)

// Constants of the corpus side (see package corpus).
const (
	DefaultMaxAbstract = corpus.DefaultMaxAbstract
	IDLen              = corpus.IDLen
	MaxCodeLinks       = corpus.MaxCodeLinks
	MaxHeadline        = corpus.MaxHeadline
)

// LoadFS is corpus.LoadFS.
func LoadFS(fsys fs.FS, patterns ...string) (*Corpus, error) { return corpus.LoadFS(fsys, patterns...) }

// LoadFiles is corpus.LoadFiles.
func LoadFiles(patterns []string) (*Corpus, error) { return corpus.LoadFiles(patterns) }

// LoadFilesLimited is corpus.LoadFilesLimited.
func LoadFilesLimited(patterns []string, lim Limits) (*Corpus, error) {
	return corpus.LoadFilesLimited(patterns, lim)
}

// CleanText is corpus.CleanText.
func CleanText(s string) (text string, urls []string) { return corpus.CleanText(s) }

// Headline is corpus.Headline.
func Headline(title, abstract string) string { return corpus.Headline(title, abstract) }

// Sentences is corpus.Sentences.
func Sentences(text string) []string { return corpus.Sentences(text) }

// LoadFilesStamped is corpus.LoadFilesStamped: the stamp goes in
// Options.Source.
func LoadFilesStamped(patterns []string, lim Limits) (*Corpus, []byte, error) {
	return corpus.LoadFilesStamped(patterns, lim)
}

// SpoolFilesWatched is corpus.SpoolFilesWatched: SpoolFilesStamped with
// the bytes read reported as it goes.
func SpoolFilesWatched(ctx context.Context, patterns []string, lim Limits, dir string, progress func(read, total int64)) (*Spool, []byte, error) {
	return corpus.SpoolFilesWatched(ctx, patterns, lim, dir, progress)
}

// RemoveSpools is corpus.RemoveSpools.
func RemoveSpools(dir string) { corpus.RemoveSpools(dir) }

// SpoolFilesStamped is corpus.SpoolFilesStamped: LoadFilesStamped with the
// papers in a temporary file in dir ("" = os.TempDir()), read back with
// Spool.Each; the caller closes the spool.
func SpoolFilesStamped(patterns []string, lim Limits, dir string) (*Spool, []byte, error) {
	return corpus.SpoolFilesStamped(patterns, lim, dir)
}

// SourceUnchanged is corpus.Unchanged: whether the files of a stamp
// (Index.Source) are unchanged, so the index can serve without a load, and
// a refreshed stamp to record (Index.SetSource) when some had to be hashed.
func SourceUnchanged(stamp []byte, patterns []string, lim Limits) (ok bool, refreshed []byte) {
	return corpus.Unchanged(stamp, patterns, lim)
}
