package boltstore

import (
	"time"

	bolt "go.etcd.io/bbolt"
)

// OpenUnchecked opens a store without the check Open does first, so tests
// can meet records damaged after a store was opened.
func OpenUnchecked(path string) (*Store, error) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		return nil, err
	}
	return &Store{db: db, path: path}, nil
}
