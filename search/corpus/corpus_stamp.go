package corpus

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"hash"
	"io"
	"io/fs"
	"os"
	"time"
)

// fileStamp records one file the loader read (or looked for and did not
// find, like a metadata.tsv beside text files): enough to tell cheaply
// whether it may have changed, and its content hash to tell for sure.
type fileStamp struct {
	Name   string `json:"name"`
	Absent bool   `json:"absent,omitempty"`
	Size   int64  `json:"size"`
	MTime  int64  `json:"mtime_ns"`
	SHA256 string `json:"sha256"`
	// Racy is set when the file was modified within racyWindow of being
	// read: a later write in the same clock tick may leave size and time
	// unchanged, so such a file is always verified by its hash.
	Racy bool `json:"racy,omitempty"`
}

// racyWindow covers coarse file-system timestamps (ext3 and FAT keep seconds
// or two).
const racyWindow = 2 * time.Second

// unchanged reports whether the file still has the recorded content,
// hashing it only when its size or modification time differ (or the stamp
// is racy). hashed is the file's stat taken before it was hashed, nil when
// it was not.
func (s fileStamp) unchanged() (same bool, hashed fs.FileInfo) {
	fi, err := os.Stat(s.Name)
	if s.Absent {
		return errors.Is(err, fs.ErrNotExist), nil
	}
	if err != nil || fi.IsDir() {
		return false, nil
	}
	if !s.Racy && fi.Size() == s.Size && fi.ModTime().UnixNano() == s.MTime {
		return true, nil
	}
	sum, err := hashFile(s.Name)
	return err == nil && sum == s.SHA256, fi
}

// restamp returns s with the size and time of fi, the stat of a file taken
// before it was found unchanged by its hash (a later change shows as a new
// time); ok is false while the file is still racy.
func (s fileStamp) restamp(fi fs.FileInfo) (fileStamp, bool) {
	if time.Since(fi.ModTime()) < racyWindow {
		return s, false
	}
	s.Size, s.MTime, s.Racy = fi.Size(), fi.ModTime().UnixNano(), false
	return s, true
}

func hashFile(name string) (string, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// stampingSource is the disk, recording a stamp of every file read through
// it. The stat comes before the read, so a file changed in between is seen
// as changed next time (its hash is of what was read).
type stampingSource struct {
	diskSource
	stamps []fileStamp
	// progress, if set, is told the bytes read so far.
	progress func(read int64)
	read     int64
	// stop, if set, ends reading with its error (a cancelled context's).
	stop func() error
}

// stopped is stop's error, nil without one.
func (s *stampingSource) stopped() error {
	if s.stop == nil {
		return nil
	}
	return s.stop()
}

func (s *stampingSource) count(n int) {
	if s.progress != nil && n > 0 {
		s.read += int64(n)
		s.progress(s.read)
	}
}

func (s *stampingSource) readFile(name string) ([]byte, error) {
	if err := s.stopped(); err != nil {
		return nil, err
	}
	fi, statErr := os.Stat(name)
	now := time.Now()
	data, err := os.ReadFile(name)
	s.count(len(data))
	switch {
	case errors.Is(err, fs.ErrNotExist) && errors.Is(statErr, fs.ErrNotExist):
		s.stamps = append(s.stamps, fileStamp{Name: name, Absent: true})
	case err == nil && statErr == nil:
		sum := sha256.Sum256(data)
		mt := fi.ModTime()
		s.stamps = append(s.stamps, fileStamp{
			Name: name, Size: fi.Size(), MTime: mt.UnixNano(), SHA256: hex.EncodeToString(sum[:]),
			Racy: now.Sub(mt) < racyWindow,
		})
	}
	return data, err
}

// open is readFile for a file read as a stream: the stat comes before the
// open, the stamp takes its place in the list at once (before a sidecar
// read while the file is parsed) and its hash is of the bytes read, set
// when the file is closed.
func (s *stampingSource) open(name string) (io.ReadCloser, error) {
	fi, statErr := os.Stat(name)
	now := time.Now()
	f, err := os.Open(name)
	switch {
	case errors.Is(err, fs.ErrNotExist) && errors.Is(statErr, fs.ErrNotExist):
		s.stamps = append(s.stamps, fileStamp{Name: name, Absent: true})
		return nil, err
	case err != nil:
		return nil, err
	case statErr != nil:
		return f, nil
	}
	mt := fi.ModTime()
	s.stamps = append(s.stamps, fileStamp{Name: name, Size: fi.Size(), MTime: mt.UnixNano(), Racy: now.Sub(mt) < racyWindow})
	return &hashingFile{f: f, h: sha256.New(), src: s, i: len(s.stamps) - 1}, nil
}

// hashingFile hashes what is read from f into stamp i of src (an index:
// the list may grow while f is open).
type hashingFile struct {
	f   *os.File
	h   hash.Hash
	src *stampingSource
	i   int
}

func (h *hashingFile) Read(p []byte) (int, error) {
	if err := h.src.stopped(); err != nil {
		return 0, err
	}
	n, err := h.f.Read(p)
	h.h.Write(p[:n])
	h.src.count(n)
	return n, err
}

func (h *hashingFile) Close() error {
	h.src.stamps[h.i].SHA256 = hex.EncodeToString(h.h.Sum(nil))
	return h.f.Close()
}
