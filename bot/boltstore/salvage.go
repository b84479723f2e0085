package boltstore

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/paperbot/paperbot/bot/digest"
)

// salvage reads what decodes from the store file f.
func salvage(f *os.File, path string) (contents, RepairReport, error) {
	file, err := io.ReadAll(f)
	if err != nil {
		return contents{}, RepairReport{}, fmt.Errorf("subscription store %s: %w", path, err)
	}
	if c, err := checkBytes(file, path); err == nil && boltCheckCopy(file, filepath.Dir(path)) == nil {
		s, r, l := c.records()
		return c, RepairReport{Sound: true, Subscriptions: s, Runs: r, Ledger: l, Saved: c.saved(), Votes: len(c.votes)}, nil
	}
	if len(file) == 0 {
		return contents{}, RepairReport{Lost: []string{"the file is empty"}}, nil
	}
	tree, err := walkFile(file)
	var de *DamageError
	if errors.As(err, &de) && de.Kind == Damaged {
		return contents{}, RepairReport{Lost: []string{de.Problem}}, nil // no meta page: nothing to walk
	}
	if err == nil {
		if len(tree.problems) > 0 {
			// Buckets missing from a damaged tree were lost with their pages:
			// that is damage to a store, not a sign of some other file.
			for _, name := range bucketNames {
				if tree.root.buckets[name] == nil {
					tree.root.buckets[name] = newRawBucket()
				}
			}
		}
		var c contents
		if c, err = decodeTree(tree.root, path, true); err == nil {
			rebuildLedger(&c)
			s, r, l := c.records()
			return c, RepairReport{Subscriptions: s, Runs: r, Ledger: l, Saved: c.saved(), Votes: len(c.votes), Lost: append(tree.problems, c.lost...)}, nil
		}
	}
	if errors.As(err, &de) {
		de.Path = path
	}
	return contents{}, RepairReport{}, err
}

// boltCheckCopy runs bbolt's consistency check on a copy of file: the
// caller holds the store's lock, which bbolt's own would wait for.
func boltCheckCopy(file []byte, dir string) error {
	f, err := os.CreateTemp(dir, FileName+".check-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	_, err = f.Write(file)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	db, err := openChecked(f.Name(), time.Second)
	if err != nil {
		return err
	}
	return db.Close()
}

// rebuildLedger adds the papers of every posted run to its channel's
// ledger: MarkPosted wrote exactly those, so none is guessed.
func rebuildLedger(c *contents) {
	for _, r := range c.runs {
		if r.State != digest.Posted {
			continue
		}
		if c.ledger[r.ChannelID] == nil {
			c.ledger[r.ChannelID] = map[string]string{}
		}
		for _, id := range r.Papers {
			if _, ok := c.ledger[r.ChannelID][id]; !ok {
				c.ledger[r.ChannelID][id] = r.Key.String()
			}
		}
	}
}

// fill writes salvaged records into a new store.
func fill(tx *bolt.Tx, c contents) error {
	if err := initSchema(tx); err != nil {
		return err
	}
	for _, sub := range c.subs {
		if err := putSub(tx, sub); err != nil {
			return err
		}
	}
	for _, r := range c.runs {
		if err := putRun(tx, r); err != nil {
			return err
		}
	}
	if err := fillMemory(tx, c); err != nil {
		return err
	}
	for channel, papers := range c.ledger {
		b, err := tx.Bucket(bucketLedger).CreateBucket([]byte(channel))
		if err != nil {
			return err
		}
		for id, key := range papers {
			if err := b.Put([]byte(id), []byte(key)); err != nil {
				return err
			}
		}
	}
	return nil
}
