package boltstore

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"

	"github.com/paperbot/paperbot/bot/memory"
	"github.com/paperbot/paperbot/fault"
)

var _ memory.Store = (*Store)(nil)

// listBucket is owner's list, nil when it has none (or the store, opened
// read-only, is still version 1).
func listBucket(tx *bolt.Tx, owner memory.Owner) *bolt.Bucket {
	lists := tx.Bucket(bucketLists)
	if lists == nil {
		return nil
	}
	return lists.Bucket([]byte(owner.String()))
}

func (s *Store) Save(ctx context.Context, owner memory.Owner, saved memory.Saved) (bool, error) {
	if err := owner.Validate(); err != nil {
		return false, err
	}
	if err := saved.Validate(); err != nil {
		return false, err
	}
	added := false
	err := s.update(ctx, func(tx *bolt.Tx) error {
		b, err := tx.Bucket(bucketLists).CreateBucketIfNotExists([]byte(owner.String()))
		if err != nil {
			return err
		}
		if b.Get([]byte(saved.Paper.ID)) != nil {
			return nil
		}
		added = true
		return putJSON(b, []byte(saved.Paper.ID), saved)
	})
	return added, err
}

func (s *Store) List(ctx context.Context, owner memory.Owner) ([]memory.Saved, error) {
	var out []memory.Saved
	err := s.view(ctx, func(tx *bolt.Tx) error {
		b := listBucket(tx, owner)
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, v []byte) error {
			saved, err := decodeSaved(k, v)
			if err != nil {
				return fmt.Errorf("list %s, paper %s: corrupt record: %w", owner, k, err)
			}
			out = append(out, saved)
			return nil
		})
	})
	memory.SortSaved(out)
	return out, err
}

// editSaved rewrites one entry of owner's list with edit. fault.NotFound.
func (s *Store) editSaved(ctx context.Context, owner memory.Owner, paperID string, edit func(b *bolt.Bucket, saved memory.Saved) error) error {
	return s.update(ctx, func(tx *bolt.Tx) error {
		b := listBucket(tx, owner)
		var raw []byte
		if b != nil {
			raw = b.Get([]byte(paperID))
		}
		if raw == nil {
			return fmt.Errorf("paper %s on list %s: %w", paperID, owner, fault.NotFound)
		}
		saved, err := decodeSaved([]byte(paperID), raw)
		if err != nil {
			return fmt.Errorf("list %s, paper %s: corrupt record: %w", owner, paperID, err)
		}
		return edit(b, saved)
	})
}

func (s *Store) SetRead(ctx context.Context, owner memory.Owner, paperID string, read bool) error {
	return s.editSaved(ctx, owner, paperID, func(b *bolt.Bucket, saved memory.Saved) error {
		saved.Read = read
		return putJSON(b, []byte(paperID), saved)
	})
}

func (s *Store) Remove(ctx context.Context, owner memory.Owner, paperID string) error {
	return s.editSaved(ctx, owner, paperID, func(b *bolt.Bucket, _ memory.Saved) error {
		return b.Delete([]byte(paperID))
	})
}

func (s *Store) Forget(ctx context.Context, user string) (votes, saved int, err error) {
	if user == "" {
		return 0, 0, fault.E("forget", fault.Invalid, "no user to forget")
	}
	err = s.update(ctx, func(tx *bolt.Tx) error {
		votes, saved = 0, 0
		lists := tx.Bucket(bucketLists)
		own := []byte(memory.User(user).String())
		if b := lists.Bucket(own); b != nil {
			saved = b.Stats().KeyN
			if err := lists.DeleteBucket(own); err != nil {
				return err
			}
		}
		// Channel lists keep the paper, not who saved it.
		err := lists.ForEachBucket(func(name []byte) error {
			b := lists.Bucket(name)
			var rewrite []memory.Saved
			err := b.ForEach(func(k, v []byte) error {
				var sv memory.Saved
				if json.Unmarshal(v, &sv) == nil && sv.SavedBy == user {
					sv.SavedBy = ""
					rewrite = append(rewrite, sv)
				}
				return nil
			})
			for _, sv := range rewrite {
				if err == nil {
					err = putJSON(b, []byte(sv.Paper.ID), sv)
				}
			}
			return err
		})
		if err != nil {
			return err
		}
		all := tx.Bucket(bucketVotes)
		return all.ForEachBucket(func(name []byte) error {
			b := all.Bucket(name)
			var mine [][]byte
			err := b.ForEach(func(k, v []byte) error {
				var vote memory.Vote
				if json.Unmarshal(v, &vote) == nil && vote.User == user {
					mine = append(mine, slices.Clone(k))
				}
				return nil
			})
			for _, k := range mine {
				if err == nil {
					err = b.Delete(k)
				}
			}
			votes += len(mine)
			return err
		})
	})
	return votes, saved, err
}
