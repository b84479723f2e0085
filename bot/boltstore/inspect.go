package boltstore

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// Verify checks the store file at path without writing to it, as Open does
// before it writes: nil for a sound paperbot store. Refusals wrap ErrDamaged
// (a *DamageError: damaged, empty or foreign file), digest.ErrSchemaTooNew,
// ErrLocked when another process holds the file for writing, or
// os.ErrNotExist.
func Verify(path string, opts Options) error {
	db, _, err := checkFile(path, opts.timeout())
	if err != nil {
		return err
	}
	return db.Close()
}

// checkFile reads the file at path under a shared lock and refuses it unless
// it is a sound paperbot store, in this order: its pages, bounds-checked
// without bbolt (bbolt would fault on a page past the end of a cut file);
// the bucket layout, schema version and every record; then bbolt's own
// consistency check (free pages, key order). It writes nothing. On success it
// returns the file opened read-only by bbolt, for callers that keep reading
// (close it), and the decoded records.
func checkFile(path string, timeout time.Duration) (*bolt.DB, contents, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, contents{}, fmt.Errorf("subscription store: %w", err)
	}
	defer f.Close() // releases the lock; bbolt's read-only handle holds its own
	if err := lockFile(f, false, timeout); err != nil {
		return nil, contents{}, lockedError(path, timeout, err)
	}
	// The store is small (subscriptions and their run log, kilobytes to a
	// few megabytes): reading it whole keeps every check off bbolt's mmap.
	file, err := io.ReadAll(f)
	if err != nil {
		return nil, contents{}, fmt.Errorf("subscription store %s: %w", path, err)
	}
	c, err := checkBytes(file, path)
	if err != nil {
		return nil, contents{}, err
	}
	db, err := openChecked(path, timeout)
	if err != nil {
		return nil, contents{}, err
	}
	return db, c, nil
}

// checkBytes checks a store file's bytes: pages, layout, records.
func checkBytes(file []byte, path string) (contents, error) {
	if len(file) == 0 {
		return contents{}, &DamageError{Path: path, Kind: Empty, Problem: "0 bytes"}
	}
	tree, err := walkFile(file)
	if err == nil && len(tree.problems) > 0 {
		err = problemsError(Damaged, tree.problems)
	}
	var c contents
	if err == nil {
		c, err = decodeTree(tree.root, path, false)
	}
	if err == nil && len(c.lost) > 0 {
		err = problemsError(Damaged, c.lost)
	}
	var de *DamageError
	if errors.As(err, &de) {
		de.Path = path
	}
	return c, err
}

// openChecked opens a file whose pages checkBytes accepted read-only with
// bbolt and runs bbolt's consistency check. A panic inside bbolt becomes a
// refusal, never a crash.
func openChecked(path string, timeout time.Duration) (db *bolt.DB, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if p := recover(); p != nil {
			if db != nil {
				db.Close()
			}
			db, err = nil, &DamageError{Path: path, Kind: Damaged, Problem: fmt.Sprintf("bbolt failed reading it: %v", p)}
		}
	}()
	db, err = bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: timeout})
	if err != nil {
		if errors.Is(err, bolterrors.ErrTimeout) {
			return nil, lockedError(path, timeout, ErrLocked)
		}
		return nil, &DamageError{Path: path, Kind: Damaged, Problem: fmt.Sprintf("bbolt cannot open it: %v", err)}
	}
	var problems []string
	err = db.View(func(tx *bolt.Tx) error {
		for e := range tx.Check() {
			problems = append(problems, e.Error())
		}
		return nil
	})
	if err == nil && len(problems) > 0 {
		err = problemsError(Damaged, problems)
		err.(*DamageError).Path = path
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// lockedError explains a lock another process holds.
func lockedError(path string, timeout time.Duration, err error) error {
	if errors.Is(err, ErrLocked) {
		return fmt.Errorf("subscription store %s: %w (is paperbot serve running?); gave up after %s", path, ErrLocked, timeout)
	}
	return fmt.Errorf("subscription store %s: locking: %w", path, err)
}
