package boltstore

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
)

// WriteTo writes a consistent copy of the whole store to w from one read
// transaction (bbolt's Tx.WriteTo): safe while the store is in use, since
// readers and the writer go on meanwhile. The copy is a store file of its
// own; restore it by putting it in place of digests.db while paperbot is
// stopped.
func (s *Store) WriteTo(w io.Writer) (n int64, err error) {
	err = s.view(context.Background(), func(tx *bolt.Tx) error {
		n, err = tx.WriteTo(w)
		return err
	})
	return n, err
}

// SaveCopy writes a store file at dest with write, atomically: into a
// temporary file beside dest, synced, checked like Open checks (a copy that
// would be refused is no backup), then renamed over dest. On error dest is
// unchanged.
func SaveCopy(dest string, write func(io.Writer) error) error {
	dir := filepath.Dir(dest)
	f, err := os.CreateTemp(dir, filepath.Base(dest)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // a no-op once renamed
	err = write(f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := Verify(tmp, Options{Timeout: time.Second}); err != nil {
		return fmt.Errorf("the copy fails the store check, so %s was not written: %w", dest, err)
	}
	if err := os.Rename(tmp, dest); err != nil {
		return err
	}
	return syncDir(dir)
}
