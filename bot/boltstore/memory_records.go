package boltstore

import (
	"encoding/json"
	"fmt"
	"strings"

	bolt "go.etcd.io/bbolt"

	"github.com/paperbot/paperbot/bot/memory"
)

// decodeMemory decodes the reading lists and votes of a store read by
// walkFile into c, checking each record against its key; lose notes the
// records that do not decode.
func decodeMemory(root *rawBucket, c *contents, lose func(bucket string, key []byte, format string, args ...any)) {
	lists := root.buckets[string(bucketLists)]
	for _, kv := range lists.values {
		lose("lists", kv.key, "is a value where a list's bucket belongs")
	}
	for owner, papers := range lists.buckets {
		if _, err := memory.ParseOwner(owner); err != nil {
			lose("lists", []byte(owner), "is not a user's or channel's list: %v", err)
			continue
		}
		for _, kv := range papers.values {
			s, err := decodeSaved(kv.key, kv.value)
			if err != nil {
				lose("lists/"+owner, kv.key, "%v", err)
				continue
			}
			c.lists[owner] = append(c.lists[owner], s)
		}
		for name := range papers.buckets {
			lose("lists/"+owner, []byte(name), "is a bucket where a paper belongs")
		}
	}
	votes := root.buckets[string(bucketVotes)]
	for _, kv := range votes.values {
		lose("votes", kv.key, "is a value where a channel's bucket belongs")
	}
	for channel, vs := range votes.buckets {
		for _, kv := range vs.values {
			v, err := decodeVote(channel, kv.key, kv.value)
			if err != nil {
				lose("votes/"+channel, kv.key, "%v", err)
				continue
			}
			c.votes = append(c.votes, v)
		}
		for name := range vs.buckets {
			lose("votes/"+channel, []byte(name), "is a bucket where a vote belongs")
		}
	}
}

func decodeSaved(key, value []byte) (memory.Saved, error) {
	var s memory.Saved
	if err := json.Unmarshal(value, &s); err != nil {
		return s, fmt.Errorf("does not decode: %v", err)
	}
	if s.Paper.ID != string(key) {
		return s, fmt.Errorf("holds paper %q", s.Paper.ID)
	}
	return s, s.Validate()
}

// voteKey is a vote's key inside its channel's bucket.
func voteKey(paperID, user string) []byte { return []byte(paperID + " " + user) }

func decodeVote(channel string, key, value []byte) (memory.Vote, error) {
	var v memory.Vote
	if err := json.Unmarshal(value, &v); err != nil {
		return v, fmt.Errorf("does not decode: %v", err)
	}
	if err := v.Validate(); err != nil {
		return v, err
	}
	if v.Channel != channel || string(key) != string(voteKey(v.PaperID, v.User)) || strings.Contains(v.PaperID, " ") {
		return v, fmt.Errorf("holds the vote of %s on %s in %s", v.User, v.PaperID, v.Channel)
	}
	return v, nil
}

// fillMemory writes salvaged lists and votes into a new store.
func fillMemory(tx *bolt.Tx, c contents) error {
	for owner, list := range c.lists {
		b, err := tx.Bucket(bucketLists).CreateBucketIfNotExists([]byte(owner))
		if err != nil {
			return err
		}
		for _, s := range list {
			if err := putJSON(b, []byte(s.Paper.ID), s); err != nil {
				return err
			}
		}
	}
	for _, v := range c.votes {
		b, err := tx.Bucket(bucketVotes).CreateBucketIfNotExists([]byte(v.Channel))
		if err != nil {
			return err
		}
		if err := putJSON(b, voteKey(v.PaperID, v.User), v); err != nil {
			return err
		}
	}
	return nil
}

func putJSON(b *bolt.Bucket, key []byte, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return b.Put(key, raw)
}
