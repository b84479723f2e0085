package search

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/paperbot/paperbot/search/corpus"
)

// On disk, Options.Dir holds:
//
//	idx-<mapping version>-<corpus hash>/   one complete scorch index per corpus
//	idx-...-<hash>.tmp/                     an index being built (stale after a crash)
//	CURRENT                                 the name of the live index
//
// A build indexes in memory, copies the result into a .tmp directory,
// merges its segments into one, syncs
// it, renames it into place and then rewrites CURRENT (temp file + rename),
// so a crash at any point leaves the previous index complete; stale .tmp directories are removed at the next
// open and older indexes once the new one is live.

const (
	currentFile = "CURRENT"
	tmpSuffix   = ".tmp"
	indexPrefix = "idx-"
	// boltTimeout bounds the wait for an index another process holds open.
	boltTimeout = "2s"
)

// indexName is the directory name of the index of a corpus.
func indexName(hash string) string {
	return indexPrefix + mappingVersion + "-" + hash[:min(len(hash), 24)]
}

func runtimeConfig() map[string]any { return map[string]any{"bolt_timeout": boltTimeout} }

// openDir reopens the index of hash in opts.Dir, or builds it beside the
// others and makes it current.
func openDir(ctx context.Context, opts Options, c *Corpus, papers []Paper, hash string) (*state, error) {
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return nil, &Error{Op: opOpen, Kind: Internal, Msg: "cannot create the index directory", Err: err}
	}
	removeStale(opts.Dir)
	name := indexName(hash)
	path := filepath.Join(opts.Dir, name)
	if st, err := reopen(path, papers, hash); st != nil || err != nil {
		if err == nil {
			err = writeCurrent(opts.Dir, name)
		}
		if err != nil && st != nil {
			_ = st.close()
			st = nil
		}
		return st, err
	}
	if err := guardReplace(opts, c, name); err != nil {
		return nil, err
	}
	if err := build(ctx, path, papers, c.Skipped, opts); err != nil {
		return nil, err
	}
	if err := writeCurrent(opts.Dir, name); err != nil {
		return nil, err
	}
	bi, err := bleve.OpenUsing(path, runtimeConfig())
	if err != nil {
		return nil, openErr(path, err)
	}
	st, err := newState(bi, papers, hash, path, true)
	if err != nil {
		_ = bi.Close()
		return nil, &Error{Op: opOpen, Kind: Internal, Err: err}
	}
	return st, nil
}

// guardReplace asks opts.Guard before an index of another corpus replaces
// the live one in opts.Dir; with no live index there is nothing to lose.
func guardReplace(opts Options, c *Corpus, name string) error {
	live := readCurrent(opts.Dir)
	if opts.Guard == nil || live == "" || live == name {
		return nil
	}
	path := filepath.Join(opts.Dir, live)
	bi, err := bleve.OpenUsing(path, runtimeConfig())
	if err != nil {
		return nil // a damaged or missing live index holds nothing to keep
	}
	n, err := bi.DocCount()
	_ = bi.Close()
	if err != nil {
		return nil
	}
	return opts.Guard(LiveCorpus{Papers: int(n), Skipped: readSkipped(path)}, c)
}

// reopen opens a complete index at path if there is one holding every
// paper; (nil, nil) means build it. A damaged index is removed.
func reopen(path string, papers []Paper, hash string) (*state, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, nil
	}
	bi, err := bleve.OpenUsing(path, runtimeConfig())
	if err != nil {
		if inUse(err) {
			return nil, openErr(path, err)
		}
		_ = os.RemoveAll(path)
		return nil, nil
	}
	if n, err := bi.DocCount(); err != nil || int(n) != len(papers) {
		_ = bi.Close()
		_ = os.RemoveAll(path)
		return nil, nil
	}
	st, err := newState(bi, papers, hash, path, false)
	if err != nil {
		_ = bi.Close()
		_ = os.RemoveAll(path)
		return nil, nil
	}
	return st, nil
}

// build writes the index of papers to path: it is built in memory, copied
// into a .tmp directory with bleve's online copy, compacted to one segment
// (see compact), synced, and renamed.
func build(ctx context.Context, path string, papers []Paper, skipped int, opts Options) error {
	tmp := path + tmpSuffix
	if err := os.RemoveAll(tmp); err != nil {
		return &Error{Op: opOpen, Kind: Internal, Err: err}
	}
	bi, err := buildMemory(ctx, papers, opts)
	if err != nil {
		return err
	}
	err = copyIndex(bi, tmp)
	if cerr := bi.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err == nil {
		err = compact(ctx, tmp)
	}
	if err == nil {
		err = writeCorpusStats(tmp, len(papers), skipped)
	}
	if err == nil {
		err = syncTree(tmp)
	}
	if err == nil {
		err = os.RemoveAll(path)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		_ = os.RemoveAll(tmp)
		return &Error{Op: opOpen, Kind: Internal, Msg: "cannot write the index to " + filepath.Dir(path), Err: err}
	}
	return syncDir(filepath.Dir(path))
}

// indexMeta is what bleve writes as index_meta.json for a scorch index; the
// online copy does not write it for an in-memory source.
const indexMeta = `{"storage":"scorch","index_type":"scorch"}`

// copyIndex writes a complete on-disk copy of the open index bi to dir.
func copyIndex(bi bleve.Index, dir string) error {
	adv, err := bi.Advanced()
	if err != nil {
		return err
	}
	ci, ok := adv.(index.CopyIndex)
	if !ok {
		return fmt.Errorf("index type %T cannot be copied", adv)
	}
	r := ci.CopyReader()
	if r == nil {
		return fmt.Errorf("index has no copy reader")
	}
	err = r.CopyTo(bleve.FileSystemDirectory(dir))
	if cerr := r.CloseCopyReader(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "index_meta.json"), []byte(indexMeta), 0o644)
}

// syncTree fsyncs every file and directory under root.
func syncTree(root string) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		err = f.Sync()
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	})
}

// writeCurrent atomically points CURRENT at the index name.
func writeCurrent(dir, name string) error {
	fail := func(err error) error {
		return &Error{Op: opOpen, Kind: Internal, Msg: "cannot record the live index", Err: err}
	}
	if b, err := os.ReadFile(filepath.Join(dir, currentFile)); err == nil && strings.TrimSpace(string(b)) == name {
		return nil
	}
	tmp := filepath.Join(dir, currentFile+tmpSuffix)
	f, err := os.Create(tmp)
	if err != nil {
		return fail(err)
	}
	_, err = f.WriteString(name + "\n")
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, currentFile))
	}
	if err != nil {
		_ = os.Remove(tmp)
		return fail(err)
	}
	return syncDir(dir)
}

// readCurrent returns the name of the live index in dir, "" if none.
func readCurrent(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, currentFile))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return &Error{Op: opOpen, Kind: Internal, Err: err}
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return &Error{Op: opOpen, Kind: Internal, Err: err}
	}
	return nil
}

// removeStale deletes leftovers of interrupted builds, and corpus snapshots
// a crash left half written (see writeSnapshot). Those are written before
// the directory is locked, so only old ones go: a young one may be another
// process's snapshot in the making.
func removeStale(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), indexPrefix) && strings.HasSuffix(e.Name(), tmpSuffix) || e.Name() == currentFile+tmpSuffix {
			_ = os.RemoveAll(filepath.Join(dir, e.Name()))
		}
		if corpus.IsSnapshotTemp(e.Name()) {
			if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > staleSnapshotAge {
				_ = os.Remove(filepath.Join(dir, e.Name()))
			}
		}
	}
}

// staleSnapshotAge is far longer than writing a snapshot takes.
const staleSnapshotAge = time.Hour

// removeOtherIndexes deletes every index in dir but the live one.
func removeOtherIndexes(dir, live string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		if e.IsDir() && strings.HasPrefix(e.Name(), indexPrefix) && !strings.HasSuffix(e.Name(), tmpSuffix) && p != live {
			_ = os.RemoveAll(p)
		}
	}
}

func inUse(err error) bool { return strings.Contains(err.Error(), "timeout") }

func openErr(path string, err error) error {
	if inUse(err) {
		return &Error{Op: opOpen, Kind: Internal, Msg: fmt.Sprintf("the index in %s is in use by another process", filepath.Dir(path)), Err: err}
	}
	return &Error{Op: opOpen, Kind: Internal, Msg: "cannot open the index in " + filepath.Dir(path), Err: err}
}
