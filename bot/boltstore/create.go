package boltstore

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
)

// create makes a new, empty store at path unless a file is there. The store
// is built under a temporary name and linked into place, so path is never
// seen half-made: an empty or partial file at path is damage, not a store
// still being created.
func create(path string) error {
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		return nil // exists (checked next), or unreadable (reported by the check)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("subscription store: %w", err)
	}
	tmp, err := writeNew(dir, func(tx *bolt.Tx) error { return initSchema(tx) })
	if err != nil {
		return fmt.Errorf("subscription store %s: creating: %w", path, err)
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, path); err != nil && !errors.Is(err, os.ErrExist) { // ErrExist: another process made it first
		return fmt.Errorf("subscription store %s: creating: %w", path, err)
	}
	return syncDir(dir)
}

// writeNew writes a new store file in dir with fill and returns its name;
// the caller moves it into place or removes it.
func writeNew(dir string, fill func(tx *bolt.Tx) error) (string, error) {
	f, err := os.CreateTemp(dir, FileName+".new-*")
	if err != nil {
		return "", err
	}
	tmp := f.Name()
	f.Close()
	db, err := bolt.Open(tmp, 0o600, &bolt.Options{Timeout: time.Second})
	if err == nil {
		err = db.Update(fill)
		if cerr := db.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		os.Remove(tmp)
		return "", err
	}
	return tmp, nil
}

// syncDir makes a rename or link in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) { // some systems cannot sync directories
		return err
	}
	return nil
}
