package search

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"

	"github.com/paperbot/paperbot/search/semantic"
)

// On disk, Options.Dir holds:
//
//	idx-<mapping version>-<corpus hash>-<time>/   a complete scorch index
//	idx-...tmp/                                   an index being built (stale after a crash)
//	CURRENT                                       the name of the live index
//
// An index holds its papers' records and index-time data (index_meta.go),
// so opening it reads no corpus. A build indexes into a .tmp directory,
// merges its segments into one, syncs it,
// renames it into place and then rewrites CURRENT (temp file + rename), so
// a crash at any point leaves the previous index complete; stale .tmp
// directories are removed at the next open and older indexes once the new
// one is live. Small changes are applied to the live index in place, each
// in one bleve batch with its metadata (index_apply.go): a crash leaves the
// index before or after the batch, never between.

const (
	currentFile = "CURRENT"
	tmpSuffix   = ".tmp"
	indexPrefix = "idx-"
	// boltTimeout bounds the wait for an index another process holds open.
	boltTimeout = "2s"
)

// indexName is the directory name of a new index of a corpus. The time
// makes it unique: an index changed in place no longer holds the corpus it
// was built from, and a later build of that corpus must not collide with it.
func indexName(hash string) string {
	return indexPrefix + mappingVersion + "-" + hash[:min(len(hash), 16)] + "-" + strconv.FormatInt(time.Now().UnixNano(), 36)
}

// runtimeConfig is the scorch configuration of an open index. Batches wait
// until they are synced (a build's unsafe_batch, recorded in its
// index_meta.json, is overridden); merges keep segments capped.
func runtimeConfig() map[string]any {
	return map[string]any{"bolt_timeout": boltTimeout, "unsafe_batch": false, "scorchMergePlanOptions": mergePlan(segmentCap)}
}

// openDir opens the live index in opts.Dir when tryLive is set: as it is
// when it holds c, changed in place when c differs from it by a few papers
// (see applyCorpus). Otherwise it builds the index of c beside the others
// and makes it current.
func openDir(ctx context.Context, opts Options, c Papers, man manifest, tryLive bool) (*state, error) {
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return nil, &Error{Op: opOpen, Kind: Internal, Msg: "cannot create the index directory", Err: err}
	}
	removeStale(opts.Dir)
	hash := man.hash()
	if tryLive {
		st, err := openLive(opts.Dir)
		if err != nil {
			return nil, err
		}
		if st != nil {
			st.emb = opts.Embedder
			next, err := reuseLive(ctx, st, c, man, opts)
			if next == nil {
				inheritFirstSeen(man, st)
				_ = st.close()
			}
			if next != nil || err != nil {
				return next, err
			}
		} else if err := guardReplace(opts, c); err != nil {
			return nil, err
		}
	}
	name := indexName(hash)
	path := filepath.Join(opts.Dir, name)
	if err := build(ctx, path, c, man, opts); err != nil {
		return nil, err
	}
	if err := writeCurrent(opts.Dir, name); err != nil {
		return nil, err
	}
	bi, err := bleve.OpenUsing(path, runtimeConfig())
	if err != nil {
		return nil, openErr(path, err)
	}
	st, err := newState(bi, path, true)
	if err != nil {
		_ = bi.Close()
		return nil, &Error{Op: opOpen, Kind: Internal, Err: err}
	}
	return st, nil
}

// reuseLive returns the live state st as the index of c: as it is, or
// changed in place. (nil, nil) means build c's index instead.
func reuseLive(ctx context.Context, st *state, c Papers, man manifest, opts Options) (*state, error) {
	if !vectorsFit(st, opts.Embedder) {
		return nil, nil // another model's vectors: rebuilt with this one's
	}
	if st.meta.Hash == man.hash() {
		if opts.Source == nil || string(opts.Source) == string(st.meta.Source) {
			return st, nil
		}
		// The same papers from files stamped anew: record the stamp, and
		// keep the manifest's first-seen times (a load has none).
		inheritFirstSeen(man, st)
		skipped := c.Report().Skipped
		return applyChanges(ctx, st, man, changes{}, &skipped, opts.Source)
	}
	if opts.Guard != nil {
		if err := opts.Guard(st.liveCorpus(), c.Report()); err != nil {
			return nil, err
		}
	}
	return applyCorpus(ctx, st, c, man, opts)
}

// vectorsFit reports whether st's meaning vectors were made by emb, so that
// its queries may be compared with them; with no emb any index fits.
func vectorsFit(st *state, emb semantic.Embedder) bool {
	if emb == nil || emb.Dims() <= 0 {
		return true // words alone, or a served model not reached yet (FillVectors)
	}
	return st.vecs != nil && st.vecs.model == emb.ModelID() && st.vecs.dims == emb.Dims()
}

// inheritFirstSeen gives the papers of man the first-seen times the live
// index st has for them, before an index of man replaces it. Without them a
// paper the live index had (the same ID) would look new to the digests.
func inheritFirstSeen(man manifest, st *state) {
	if prior, err := st.manifest(); err == nil {
		man.inherit(prior)
	}
}

// OpenDir opens the live index in opts.Dir without a corpus: the index
// holds every paper. It is an error of kind NotFound when opts.Dir has no
// index this version of paperbot can serve; opts.Guard is not used.
func OpenDir(ctx context.Context, opts Options) (*Index, error) {
	if opts.Dir == "" {
		return nil, &Error{Op: opOpen, Kind: Invalid, Msg: "no index directory given"}
	}
	if opts.BatchSize <= 0 {
		opts.BatchSize = defaultBatchSize
	}
	served := opts.Embedder != nil && !opts.NoMeaning
	opts, err := resolveEmbedder(opts)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(opts.Dir, currentFile)); err != nil {
		return nil, &Error{Op: opOpen, Kind: NotFound, Msg: "no index in " + opts.Dir}
	}
	unlock, err := lockDir(opts.Dir)
	if err != nil {
		return nil, err
	}
	st, err := openLive(opts.Dir)
	if err == nil && st == nil {
		err = &Error{Op: opOpen, Kind: NotFound, Msg: "no usable index in " + opts.Dir}
	}
	if err == nil && !vectorsFit(st, opts.Embedder) {
		_ = st.close()
		err = &Error{Op: opOpen, Kind: NotFound, Msg: "the index in " + opts.Dir + " holds another sentence model's vectors: it must be built again"}
	}
	if err != nil {
		_ = unlock()
		return nil, err
	}
	ix := &Index{opts: opts, unlock: unlock, st: st, served: served}
	ix.configure(st)
	return ix, nil
}

// openLive opens the index CURRENT names; (nil, nil) when there is none
// this version can use. A damaged one is removed.
func openLive(dir string) (*state, error) {
	name := readCurrent(dir)
	if !strings.HasPrefix(name, indexPrefix+mappingVersion+"-") {
		return nil, nil
	}
	path := filepath.Join(dir, name)
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
	st, err := newState(bi, path, false)
	if err == nil {
		var n uint64
		if n, err = bi.DocCount(); err == nil && int(n) != st.meta.Papers {
			err = fmt.Errorf("index holds %d papers, its metadata %d", n, st.meta.Papers)
		}
	}
	if err != nil {
		_ = bi.Close()
		_ = os.RemoveAll(path)
		return nil, nil
	}
	removeStaleSidecars(path, manifestPrefix, st.meta.Manifest)
	removeStaleSidecars(path, vectorsPrefix, st.meta.Vectors)
	return st, nil
}

// guardReplace asks opts.Guard before an index of another corpus replaces
// the live one in opts.Dir (one this version cannot use); with no live
// index there is nothing to lose.
func guardReplace(opts Options, c Papers) error {
	live := readCurrent(opts.Dir)
	if opts.Guard == nil || live == "" {
		return nil
	}
	path := filepath.Join(opts.Dir, live)
	bi, err := bleve.OpenUsing(path, runtimeConfig())
	if err != nil {
		return nil // a damaged or missing live index holds nothing to keep
	}
	n, err := bi.DocCount()
	// An index of an older format still says what its load skipped; one
	// too old to say is judged on its papers alone, or every upgrade
	// would look like a load that lost records.
	skipped, ok := liveSkipped(bi)
	if !ok {
		skipped = c.Report().Skipped
	}
	_ = bi.Close()
	if err != nil {
		return nil
	}
	return opts.Guard(LiveCorpus{Papers: int(n), Skipped: skipped}, c.Report())
}

// build writes the index of c to path: built on disk in a .tmp directory
// (segments go to disk as they are made, so memory does not grow with the
// corpus), compacted to one segment (see compact), synced, and renamed.
func build(ctx context.Context, path string, c Papers, man manifest, opts Options) error {
	tmp := path + tmpSuffix
	if err := os.RemoveAll(tmp); err != nil {
		return &Error{Op: opOpen, Kind: Internal, Err: err}
	}
	err := buildDisk(ctx, tmp, c, man, opts)
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
		var e *Error
		if errors.As(err, &e) {
			return err
		}
		return &Error{Op: opOpen, Kind: Internal, Msg: "cannot write the index to " + filepath.Dir(path), Err: err}
	}
	return syncDir(filepath.Dir(path))
}

// buildWorkers is how many batches a build on disk indexes at once.
const buildWorkers = 2

// buildDisk indexes c into a new scorch index in dir and compacts it. Its
// batches do not wait for their segments to be synced (unsafe_batch): a
// crash leaves a .tmp directory, removed at the next open, and the whole
// index is synced before it goes live.
func buildDisk(ctx context.Context, dir string, c Papers, man manifest, opts Options) error {
	m, err := newMapping()
	if err != nil {
		return err
	}
	defer limitBuildHeap()()
	cfg := runtimeConfig()
	cfg["unsafe_batch"] = true
	cfg["scorchMergePlanOptions"] = mergePlan(buildSegmentCap)
	bi, err := bleve.NewUsing(dir, m, scorch.Name, scorch.Name, cfg)
	if err != nil {
		return err
	}
	err = fill(ctx, bi, dir, c, man, opts, buildWorkers)
	if err == nil {
		// Hand the batches' heap back before merging maps hundreds of
		// megabytes of segments: Go returns freed memory only gradually.
		debug.FreeOSMemory()
		err = compactOpen(ctx, bi)
	}
	if cerr := bi.Close(); err == nil {
		err = cerr
	}
	return err
}

// buildHeapBudget is the heap a build on disk may add to what the process
// held before it: bleve's batches and unpersisted segments live in about
// 170 MB, and Go's default collector lets the heap grow to twice its live
// size between collections.
const buildHeapBudget = 256 << 20

// limitBuildHeap sets a soft memory limit of the heap in use now plus
// buildHeapBudget until the returned function restores the previous one,
// unless the operator set one (GOMEMLIMIT).
func limitBuildHeap() (restore func()) {
	if debug.SetMemoryLimit(-1) != math.MaxInt64 {
		return func() {}
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	prev := debug.SetMemoryLimit(int64(ms.HeapInuse) + buildHeapBudget)
	return func() { debug.SetMemoryLimit(prev) }
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

// removeStale deletes leftovers of interrupted builds, and the corpus
// snapshots older paperbots kept (the index now holds the papers).
func removeStale(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, indexPrefix) && strings.HasSuffix(name, tmpSuffix) || name == currentFile+tmpSuffix ||
			strings.HasPrefix(name, oldSnapshot) {
			_ = os.RemoveAll(filepath.Join(dir, name))
		}
	}
}

// oldSnapshot starts the names of the corpus snapshots (and their
// temporary files) older paperbots kept in the index directory.
const oldSnapshot = "corpus.snapshot"

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
