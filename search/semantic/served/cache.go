package served

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// CacheFile is the cache's file name in the data directory.
const CacheFile = "embeddings.db"

// Cache keeps vectors by model and text content hash in a bbolt file, so
// that a rebuild or a day's fetch embeds only new or changed texts. A
// damaged file is renamed aside and a new one started; an error reading or
// writing it later does the same. Cache is safe for concurrent use.
type Cache struct {
	mu       sync.RWMutex // write-locked to replace a damaged db
	db       *bolt.DB
	path     string
	log      *slog.Logger
	setAside []string
}

// OpenCache opens dir/embeddings.db, creating it if needed. A file that is
// not a readable bbolt database is renamed to embeddings.db.damaged-<time>,
// logged, and replaced by an empty cache (SetAside names it). It fails if
// the file cannot be created or is locked by another process.
func OpenCache(dir string, log *slog.Logger) (*Cache, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("served: embeddings cache: %w", err)
	}
	c := &Cache{path: filepath.Join(dir, CacheFile), log: log}
	db, err := openBolt(c.path)
	if err != nil && damagedFile(err) {
		if err := c.moveAside(err); err != nil {
			return nil, err
		}
		db, err = openBolt(c.path)
	}
	if err != nil {
		if errors.Is(err, berrors.ErrTimeout) {
			return nil, fmt.Errorf("served: embeddings cache %s is in use by another process", c.path)
		}
		return nil, fmt.Errorf("served: embeddings cache %s: %w", c.path, err)
	}
	c.db = db
	return c, nil
}

func openBolt(path string) (db *bolt.DB, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", errDamaged, r)
		}
	}()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	return bolt.Open(path, 0o600, &bolt.Options{Timeout: 2 * time.Second})
}

var errDamaged = errors.New("damaged cache file")

// damagedFile tells a broken file from a file that cannot be opened at all
// (permissions, a lock held elsewhere), which is left alone.
func damagedFile(err error) bool {
	var pe *os.PathError
	return !errors.As(err, &pe) && !errors.Is(err, berrors.ErrTimeout)
}

// moveAside renames the damaged file; the caller holds mu or owns c.
func (c *Cache) moveAside(cause error) error {
	aside := c.path + ".damaged-" + time.Now().UTC().Format("20060102T150405.000")
	if err := os.Rename(c.path, aside); err != nil {
		return fmt.Errorf("served: embeddings cache %s is damaged (%v) and cannot be moved aside: %w", c.path, cause, err)
	}
	c.setAside = append(c.setAside, aside)
	c.log.Warn("embeddings cache damaged: moved aside, starting an empty one", "file", c.path, "moved_to", aside, "err", cause)
	return nil
}

// SetAside names the damaged files this cache moved aside, if any.
func (c *Cache) SetAside() []string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return append([]string(nil), c.setAside...)
}

// Path is the cache file.
func (c *Cache) Path() string { return c.path }

// Close closes the file.
func (c *Cache) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.db == nil {
		return nil
	}
	err := c.db.Close()
	c.db = nil
	return err
}

// key is a text's content hash.
func key(text string) [32]byte { return sha256.Sum256([]byte(text)) }

// get returns the cached vectors of keys (nil where missing) for model.
func (c *Cache) get(model string, keys [][32]byte, dims int) ([][]float32, error) {
	out := make([][]float32, len(keys))
	err := c.do(false, func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(model))
		if b == nil {
			return nil
		}
		for i, k := range keys {
			if v := b.Get(k[:]); len(v) == 4*dims {
				out[i] = decodeFloats(v)
			}
		}
		return nil
	})
	return out, err
}

// put stores vectors under keys for model.
func (c *Cache) put(model string, keys [][32]byte, vecs [][]float32) error {
	return c.do(true, func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists([]byte(model))
		if err != nil {
			return err
		}
		for i, k := range keys {
			if err := b.Put(k[:], encodeFloats(vecs[i])); err != nil {
				return err
			}
		}
		return nil
	})
}

// do runs fn in a transaction. bbolt panics on pages it cannot read and
// faults on a file cut short under its mapping; both become an error, and
// the file is moved aside for an empty one.
func (c *Cache) do(write bool, fn func(*bolt.Tx) error) error {
	c.mu.RLock()
	err := func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("%w: %v", errDamaged, r)
			}
		}()
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		if c.db == nil {
			return errors.New("served: embeddings cache is closed")
		}
		if write {
			return c.db.Update(fn)
		}
		return c.db.View(fn)
	}()
	c.mu.RUnlock()
	if errors.Is(err, errDamaged) {
		c.replace(err)
	}
	return err
}

// replace moves a damaged file aside and opens an empty one.
func (c *Cache) replace(cause error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.db == nil {
		return
	}
	func() {
		defer func() { _ = recover() }()
		_ = c.db.Close()
	}()
	c.db = nil
	if err := c.moveAside(cause); err != nil {
		c.log.Error("embeddings cache disabled", "err", err)
		return
	}
	db, err := openBolt(c.path)
	if err != nil {
		c.log.Error("embeddings cache disabled", "file", c.path, "err", err)
		return
	}
	c.db = db
}

func encodeFloats(v []float32) []byte {
	b := make([]byte, 0, 4*len(v))
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return b
}

func decodeFloats(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}
