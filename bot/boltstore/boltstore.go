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
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/fault"
)

// FileName is the store's file name inside PAPERBOT_DATA_DIR.
const FileName = "digests.db"

// SchemaVersion is the layout this code reads and writes. Opening a file with
// a higher version fails with digest.ErrSchemaTooNew; lower versions are
// migrated on open (version 1 had no reading lists or votes: see migrate).
const SchemaVersion = 2

var (
	bucketMeta   = []byte("meta")
	bucketSubs   = []byte("subscriptions") // ID → JSON Subscription
	bucketRuns   = []byte("runs")          // RunKey.String() → JSON Run
	bucketOpen   = []byte("open_runs")     // RunKey.String() of unfinished runs → empty
	bucketLedger = []byte("ledger")        // channel ID → bucket: paper ID → run key that posted it
	bucketLists  = []byte("lists")         // memory.Owner.String() → bucket: paper ID → JSON memory.Saved (version 2)
	bucketVotes  = []byte("votes")         // channel ID → bucket: "paperID userID" → JSON memory.Vote (version 2)
	keySchema    = []byte("schema_version")
)

// Options tune Open. The zero value is ready to use.
type Options struct {
	// Timeout bounds the wait for the file lock another process holds;
	// 0 means 2 seconds.
	Timeout time.Duration
}

func (o Options) timeout() time.Duration {
	if o.Timeout <= 0 {
		return 2 * time.Second
	}
	return o.Timeout
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

// Open opens the store file at path for reading and writing, creating it
// (and its directory) when it does not exist. An existing file is checked
// first, without writing to it (see Verify): a damaged, empty or foreign
// file is refused with a *DamageError (errors.Is ErrDamaged), a newer layout
// with digest.ErrSchemaTooNew. Opening a sound file writes nothing. It fails
// with ErrLocked after opts.Timeout when another process has the file open.
func Open(path string, opts Options) (*Store, error) {
	timeout := opts.timeout()
	if err := create(path); err != nil {
		return nil, err
	}
	ro, _, err := checkFile(path, timeout)
	if err != nil {
		return nil, err
	}
	ro.Close()
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: timeout})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, lockedError(path, timeout, ErrLocked)
	}
	if err != nil {
		return nil, fmt.Errorf("subscription store %s: %w", path, err)
	}
	if err := migrateIfOld(db); err != nil {
		db.Close()
		return nil, fmt.Errorf("subscription store %s: migrating to version %d: %w", path, SchemaVersion, err)
	}
	return &Store{db: db, path: path}, nil
}

// OpenReadOnly opens an existing store for reading only, after the same
// check as Open; it never creates or writes the file, and every write
// method fails. A missing file is an error matching os.ErrNotExist.
func OpenReadOnly(path string, opts Options) (*Store, error) {
	db, _, err := checkFile(path, opts.timeout())
	if err != nil {
		return nil, err
	}
	return &Store{db: db, path: path}, nil
}

// initSchema creates the buckets and schema version of a new file.
func initSchema(tx *bolt.Tx) error {
	meta, err := tx.CreateBucket(bucketMeta)
	if err != nil {
		return err
	}
	for _, b := range [][]byte{bucketSubs, bucketRuns, bucketOpen, bucketLedger, bucketLists, bucketVotes} {
		if _, err := tx.CreateBucket(b); err != nil {
			return err
		}
	}
	return meta.Put(keySchema, []byte(strconv.Itoa(SchemaVersion)))
}

// migrateIfOld brings a checked store of an older layout to SchemaVersion
// in one transaction; a current one is left untouched (bbolt would write a
// new meta page for an empty transaction, so it is not started).
func migrateIfOld(db *bolt.DB) error {
	n := 0
	if err := db.View(func(tx *bolt.Tx) error {
		n, _ = strconv.Atoi(string(tx.Bucket(bucketMeta).Get(keySchema)))
		return nil
	}); err != nil || n >= SchemaVersion {
		return err
	}
	return db.Update(migrate)
}

// migrate moves a store from an older layout to SchemaVersion.
func migrate(tx *bolt.Tx) error {
	// 1 → 2: reading lists and votes.
	for _, b := range [][]byte{bucketLists, bucketVotes} {
		if _, err := tx.CreateBucketIfNotExists(b); err != nil {
			return err
		}
	}
	return tx.Bucket(bucketMeta).Put(keySchema, []byte(strconv.Itoa(SchemaVersion)))
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
// fault.NotFound, an unreadable one an error naming it.
func getJSON[T any](tx *bolt.Tx, bucket []byte, key, what string) (T, error) {
	var v T
	raw := tx.Bucket(bucket).Get([]byte(key))
	if raw == nil {
		return v, fmt.Errorf("%s %s: %w", what, key, fault.NotFound)
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return v, fmt.Errorf("%s %s: corrupt record: %w", what, key, err)
	}
	return v, nil
}
