package boltstore

import (
	"context"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/paperbot/paperbot/bot/memory"
)

// voteBucket is a channel's votes, nil when it has none (or the store,
// opened read-only, is still version 1).
func voteBucket(tx *bolt.Tx, channel string) *bolt.Bucket {
	votes := tx.Bucket(bucketVotes)
	if votes == nil {
		return nil
	}
	return votes.Bucket([]byte(channel))
}

func (s *Store) SetVote(ctx context.Context, v memory.Vote) error {
	if err := v.Validate(); err != nil {
		return err
	}
	return s.update(ctx, func(tx *bolt.Tx) error {
		b, err := tx.Bucket(bucketVotes).CreateBucketIfNotExists([]byte(v.Channel))
		if err != nil {
			return err
		}
		return putJSON(b, voteKey(v.PaperID, v.User), v)
	})
}

func (s *Store) ClearVote(ctx context.Context, channel, user, paperID string) error {
	return s.update(ctx, func(tx *bolt.Tx) error {
		if b := voteBucket(tx, channel); b != nil {
			return b.Delete(voteKey(paperID, user))
		}
		return nil
	})
}

func (s *Store) VoteOf(ctx context.Context, channel, user, paperID string) (int, error) {
	value := 0
	err := s.view(ctx, func(tx *bolt.Tx) error {
		b := voteBucket(tx, channel)
		if b == nil {
			return nil
		}
		raw := b.Get(voteKey(paperID, user))
		if raw == nil {
			return nil
		}
		var v memory.Vote
		if err := json.Unmarshal(raw, &v); err != nil {
			return fmt.Errorf("vote of %s on %s in %s: corrupt record: %w", user, paperID, channel, err)
		}
		value = v.Value
		return nil
	})
	return value, err
}

func (s *Store) Votes(ctx context.Context, channel string) ([]memory.Vote, error) {
	var out []memory.Vote
	err := s.view(ctx, func(tx *bolt.Tx) error {
		b := voteBucket(tx, channel)
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, v []byte) error {
			vote, err := decodeVote(channel, k, v)
			if err != nil {
				return fmt.Errorf("votes in %s, %q: corrupt record: %w", channel, k, err)
			}
			out = append(out, vote)
			return nil
		})
	})
	memory.SortVotes(out)
	return out, err
}
