package corpus

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/paperbot/paperbot/fault"
)

// Spool is a loaded corpus whose papers wait in a temporary file rather
// than in memory, for a build that takes them one at a time: memory holds
// only their IDs (8 bytes a paper). Each may run concurrently with another
// Each, not with Close.
type Spool struct {
	// Skipped, Problems, Duplicates and Files are as in Corpus.
	Skipped    int
	Problems   []string
	Duplicates int
	Files      []string

	f     *os.File // nil once closed
	name  string
	size  int64
	ids   []paperID // of the papers, in order
	count int
}

const opSpool = "spool corpus"

// SpoolFilesStamped is LoadFilesStamped that keeps the papers in a
// temporary file in dir ("" = os.TempDir()) instead of memory. Same papers,
// IDs, order, Skipped, Problems, Duplicates, Files and stamp as
// LoadFilesStamped on the same files. Errors are those of LoadFilesStamped,
// or an *Error of Kind Internal when the spool file cannot be written. The
// caller must Close the spool to remove the file.
func SpoolFilesStamped(patterns []string, lim Limits, dir string) (*Spool, []byte, error) {
	return SpoolFilesWatched(context.Background(), patterns, lim, dir, nil)
}

// SpoolFilesWatched is SpoolFilesStamped telling progress, when set, the
// bytes read so far and the size of all the files, as it reads them.
// Cancelling ctx stops reading: the error is then an *Error of Kind
// Internal saying so, and no spool file is left.
func SpoolFilesWatched(ctx context.Context, patterns []string, lim Limits, dir string, progress func(read, total int64)) (*Spool, []byte, error) {
	names, err := expand(diskSource{}, patterns)
	if err != nil {
		return nil, nil, err
	}
	src := &stampingSource{stop: ctx.Err}
	if progress != nil {
		var total int64
		for _, n := range names {
			if fi, err := os.Stat(n); err == nil {
				total += fi.Size()
			}
		}
		src.progress = func(read int64) { progress(min(read, total), total) }
	}
	f, err := os.CreateTemp(dir, spoolPattern)
	if err != nil {
		return nil, nil, &Error{Op: opSpool, Kind: fault.Internal, Msg: "cannot create the spool file", Err: err}
	}
	s := &Spool{f: f, name: f.Name(), Files: names}
	w := &spoolWriter{w: bufio.NewWriterSize(f, 256<<10)}
	res, err := loadInto(src, names, lim, w)
	if cerr := ctx.Err(); cerr != nil {
		err = &Error{Op: opSpool, Kind: fault.Internal, Msg: "loading the corpus was interrupted", Err: cerr}
	}
	if err == nil {
		err = w.flush()
	}
	var stamp []byte
	if err == nil {
		stamp, err = src.stamp(names, lim)
	}
	if err != nil {
		s.Close()
		return nil, nil, err
	}
	s.Skipped, s.Problems, s.Duplicates = res.skipped, res.problems, res.duplicates
	s.ids, s.count, s.size = res.ids, w.count, w.size
	return s, stamp, nil
}

// Len is the number of papers.
func (s *Spool) Len() int { return s.count }

// Each calls fn with every paper in order (file order, IDs set); it may be
// called any number of times. p is reused after fn returns: fn must copy
// what it keeps of it (its strings and lists are its own). An error from fn
// stops it and is returned; a spool file that cannot be read back, or is
// damaged, is an *Error of Kind Internal.
func (s *Spool) Each(fn func(p *Paper) error) error {
	if s.f == nil {
		return &Error{Op: opSpool, Kind: fault.Internal, Msg: "the spool is closed"}
	}
	r := bufio.NewReaderSize(io.NewSectionReader(s.f, 0, s.size), 256<<10)
	var (
		p   Paper
		rec []byte
	)
	for i := range s.count {
		n, err := binary.ReadUvarint(r)
		if err == nil && n > uint64(s.size) {
			err = errDamaged
		}
		if err == nil {
			if uint64(cap(rec)) < n {
				rec = make([]byte, n)
			}
			rec = rec[:n]
			_, err = io.ReadFull(r, rec)
		}
		if err == nil {
			err = decodePaper(rec, &p)
		}
		if err != nil {
			return s.damaged(i, err)
		}
		p.ID = string(s.ids[i][:])
		if err := fn(&p); err != nil {
			return err
		}
	}
	if _, err := r.ReadByte(); err != io.EOF {
		return s.damaged(s.count, errors.New("data after the last record"))
	}
	return nil
}

func (s *Spool) damaged(rec int, err error) error {
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return &Error{Op: opSpool, Kind: fault.Internal, Msg: fmt.Sprintf("cannot read paper %d of %d back from %s", rec+1, s.count, s.name), Err: err}
}

// spoolPattern names spool files (os.CreateTemp).
const spoolPattern = "paperbot-spool-*"

// RemoveSpools deletes the spool files in dir: those of a process that
// died before closing them (a build of a million papers leaves more than a
// gigabyte). A running process's open spool stays readable on Unix, where
// a removed file lives on while it is open; elsewhere it cannot be removed.
func RemoveSpools(dir string) {
	if dir == "" {
		dir = os.TempDir()
	}
	names, _ := filepath.Glob(filepath.Join(dir, spoolPattern))
	for _, n := range names {
		_ = os.Remove(n)
	}
}

// Close removes the temporary file; it is safe to call twice.
func (s *Spool) Close() error {
	if s.f == nil {
		return nil
	}
	err := s.f.Close()
	s.f = nil
	if rmErr := os.Remove(s.name); err == nil {
		err = rmErr
	}
	return err
}

// spoolWriter is the sink that appends papers to the spool file.
type spoolWriter struct {
	w     *bufio.Writer
	rec   []byte
	count int
	size  int64
}

func (w *spoolWriter) put(p *Paper) error {
	w.rec = appendPaper(w.rec[:0], p)
	var n [binary.MaxVarintLen64]byte
	k := binary.PutUvarint(n[:], uint64(len(w.rec)))
	if _, err := w.w.Write(n[:k]); err != nil {
		return w.fail(err)
	}
	if _, err := w.w.Write(w.rec); err != nil {
		return w.fail(err)
	}
	w.count++
	w.size += int64(k + len(w.rec))
	return nil
}

func (w *spoolWriter) flush() error {
	if err := w.w.Flush(); err != nil {
		return w.fail(err)
	}
	return nil
}

func (w *spoolWriter) fail(err error) error {
	return &Error{Op: opSpool, Kind: fault.Internal, Msg: "cannot write the spool file", Err: err}
}
