package boltstore

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
)

// RepairReport says what Repair or Reset did, or (from Salvage) would do.
type RepairReport struct {
	// Sound is true when the file needed no repair; Repair leaves it alone.
	Sound bool
	// Subscriptions, Runs and Ledger count the records kept.
	Subscriptions, Runs, Ledger int
	// Saved counts the papers on reading lists kept, Votes the votes.
	Saved, Votes int
	// Lost lists what could not be read: records, pages, the layout.
	Lost []string
	// Copy is where the old file was kept ("" when nothing was written).
	Copy string
}

// Salvage reports what Repair would keep of the store at path, writing
// nothing. Errors: os.ErrNotExist, ErrLocked while another process writes
// the store, a Foreign *DamageError (nothing of paperbot's to salvage),
// digest.ErrSchemaTooNew.
func Salvage(path string, opts Options) (RepairReport, error) {
	var r RepairReport
	err := withLock(path, false, opts.timeout(), func(f *os.File) error {
		_, rep, err := salvage(f, path)
		r = rep
		return err
	})
	return r, err
}

// Repair replaces a damaged store with a fresh file holding every record of
// it that still decodes (the posted-paper ledger is also rebuilt from the
// posted runs), after keeping the old file beside it under a name that says
// when (RepairReport.Copy). A sound store is left alone. It holds the
// file's lock throughout, so it fails with ErrLocked while paperbot serve
// runs. Errors as Salvage.
func Repair(path string, opts Options) (RepairReport, error) {
	var r RepairReport
	err := withLock(path, true, opts.timeout(), func(f *os.File) error {
		c, rep, err := salvage(f, path)
		r = rep
		if err != nil || r.Sound {
			return err
		}
		r.Copy, err = replace(path, "before-repair", func(tx *bolt.Tx) error { return fill(tx, c) })
		return err
	})
	return r, err
}

// Reset replaces the store at path, whatever it holds, with an empty one,
// after keeping the old file beside it (RepairReport.Copy). It holds the
// file's lock throughout: ErrLocked while paperbot serve runs.
func Reset(path string, opts Options) (RepairReport, error) {
	var r RepairReport
	err := withLock(path, true, opts.timeout(), func(*os.File) error {
		var err error
		r.Copy, err = replace(path, "before-reset", initSchema)
		return err
	})
	return r, err
}

// withLock runs fn with the store file open and locked as bbolt locks it.
func withLock(path string, exclusive bool, timeout time.Duration, fn func(f *os.File) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("subscription store: %w", err)
	}
	defer f.Close()
	if err := lockFile(f, exclusive, timeout); err != nil {
		return lockedError(path, timeout, err)
	}
	return fn(f)
}

// replace builds a new store with fill, checks it, keeps the file at path
// as path.<why>-<time> and moves the new one into place. It returns the
// kept copy's name.
func replace(path, why string, fill func(*bolt.Tx) error) (string, error) {
	dir := filepath.Dir(path)
	tmp, err := writeNew(dir, fill)
	if err != nil {
		return "", fmt.Errorf("subscription store %s: writing the new file: %w", path, err)
	}
	defer os.Remove(tmp) // a no-op once renamed
	if err := Verify(tmp, Options{Timeout: time.Second}); err != nil {
		return "", fmt.Errorf("subscription store %s: the new file fails its own check: %w", path, err)
	}
	kept := fmt.Sprintf("%s.%s-%s", path, why, time.Now().UTC().Format("20060102T150405Z"))
	if err := keepCopy(path, kept); err != nil {
		return "", fmt.Errorf("subscription store %s: keeping a copy: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return "", fmt.Errorf("subscription store %s: %w (the old file is kept as %s)", path, err, kept)
	}
	return kept, syncDir(dir)
}

// keepCopy makes kept a second name for the file at path (a copy of it
// where links are not supported); it never overwrites kept.
func keepCopy(path, kept string) error {
	if err := os.Link(path, kept); err == nil || errors.Is(err, os.ErrExist) {
		return err
	}
	src, err := os.Open(path)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(kept, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	if err := dst.Sync(); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}
