// Package boltstore is the digest.Store kept in one bbolt file under
// PAPERBOT_DATA_DIR.
//
// Why bbolt: it is already in the dependency graph through bleve, so it adds
// no module; the whole store is one file; every Update is an ACID transaction,
// which is what MarkPosted needs (run state, channel ledger and subscription
// count change together or not at all); it survives kill -9 and power loss
// because it never overwrites live pages (copy-on-write B+tree) and fsyncs
// the data before the meta page that makes a commit visible; and it is pure
// Go, so the binary stays cgo-free and static. SQLite would need cgo
// (mattn/go-sqlite3) or a large pure-Go port (modernc.org/sqlite) for SQL we
// do not need. The cost: one writer at a time and one process per file, both
// fine for one bot; several replicas need a shared database behind the same
// digest.Store interface.
package boltstore

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/paperbot/paperbot/bot/digest"
)

// FileName is the store's file name inside PAPERBOT_DATA_DIR.
const FileName = "digests.db"

// SchemaVersion is the layout this code reads and writes. Opening a file with
// a higher version fails with digest.ErrSchemaTooNew; lower versions are
// migrated on open (there are none yet).
const SchemaVersion = 1

var (
	bucketMeta   = []byte("meta")
	bucketSubs   = []byte("subscriptions") // ID → JSON Subscription
	bucketRuns   = []byte("runs")          // RunKey.String() → JSON Run
	bucketOpen   = []byte("open_runs")     // RunKey.String() of unfinished runs → empty
	bucketLedger = []byte("ledger")        // channel ID → bucket: paper ID → run key that posted it
	keySchema    = []byte("schema_version")
)

// Options tune Open. The zero value is ready to use.
type Options struct {
	// Timeout bounds the wait for the file lock another process holds;
	// 0 means 2 seconds.
	Timeout time.Duration
}

// Store is a digest.Store in a bbolt file, safe for concurrent use by one
// process. Use Open.
type Store struct {
	db   *bolt.DB
	path string
}

var _ digest.Store = (*Store)(nil)

// ErrLocked is returned by Open when another process holds the store.
var ErrLocked = errors.New("locked by another process")

// Open opens or creates the store file at path (creating its directory),
// checks its schema version and returns the store. It fails after
// opts.Timeout when another process has the file open.
func Open(path string, opts Options) (*Store, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = 2 * time.Second
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("digest store: %w", err)
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: opts.Timeout})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("digest store %s: %w (is another paperbot running?); gave up after %s", path, ErrLocked, opts.Timeout)
	}
	if err != nil {
		return nil, fmt.Errorf("digest store %s: %w", path, err)
	}
	if err := db.Update(func(tx *bolt.Tx) error { return initSchema(tx, path) }); err != nil {
		db.Close()
		return nil, err
	}
	return &Store{db: db, path: path}, nil
}

// initSchema creates the buckets of a new file and refuses newer layouts.
func initSchema(tx *bolt.Tx, path string) error {
	meta, err := tx.CreateBucketIfNotExists(bucketMeta)
	if err != nil {
		return err
	}
	if v := meta.Get(keySchema); v != nil {
		n, err := strconv.Atoi(string(v))
		if err != nil {
			return fmt.Errorf("digest store %s: unreadable schema version %q", path, v)
		}
		if n > SchemaVersion {
			return fmt.Errorf("digest store %s has schema version %d, this paperbot reads up to %d: run a newer paperbot or move the file away: %w",
				path, n, SchemaVersion, digest.ErrSchemaTooNew)
		}
	}
	for _, b := range [][]byte{bucketSubs, bucketRuns, bucketOpen, bucketLedger} {
		if _, err := tx.CreateBucketIfNotExists(b); err != nil {
			return err
		}
	}
	return meta.Put(keySchema, []byte(strconv.Itoa(SchemaVersion)))
}

// Path returns the file the store lives in.
func (s *Store) Path() string { return s.path }

// Check verifies the file's B+tree (page references, freelist, ordering) and
// returns every inconsistency found, joined; nil for a sound file.
func (s *Store) Check() error {
	var errs []error
	err := s.db.View(func(tx *bolt.Tx) error {
		for e := range tx.Check() {
			errs = append(errs, e)
		}
		return nil
	})
	return errors.Join(append(errs, err)...)
}

// Close closes the file. Closing twice is safe.
func (s *Store) Close() error { return s.db.Close() }

// getJSON reads the JSON record under key in bucket; a missing one is
// digest.ErrNotFound, an unreadable one an error naming it.
func getJSON[T any](tx *bolt.Tx, bucket []byte, key, what string) (T, error) {
	var v T
	raw := tx.Bucket(bucket).Get([]byte(key))
	if raw == nil {
		return v, fmt.Errorf("%s %s: %w", what, key, digest.ErrNotFound)
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return v, fmt.Errorf("%s %s: corrupt record: %w", what, key, err)
	}
	return v, nil
}
