package boltstore

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/bot/memory"
)

// contents are a store's records decoded from its file by decodeTree.
type contents struct {
	schema int
	subs   []digest.Subscription
	runs   []digest.Run
	ledger map[string]map[string]string // channel ID → paper ID → run key
	lists  map[string][]memory.Saved    // memory.Owner.String() → its list
	votes  []memory.Vote
	// lost lists the records that did not decode, as "where: why".
	lost []string
}

// records counts what was decoded, for reports.
func (c contents) records() (subs, runs, ledger int) {
	for _, papers := range c.ledger {
		ledger += len(papers)
	}
	return len(c.subs), len(c.runs), ledger
}

// saved counts the papers on every reading list.
func (c contents) saved() int {
	n := 0
	for _, l := range c.lists {
		n += len(l)
	}
	return n
}

// bucketNames are the top-level buckets of a paperbot store; a version 1
// store has only the first five (bucketNamesV1).
var (
	bucketNames   = append(slices.Clip(bucketNamesV1), string(bucketLists), string(bucketVotes))
	bucketNamesV1 = []string{string(bucketMeta), string(bucketSubs), string(bucketRuns), string(bucketOpen), string(bucketLedger)}
)

// decodeTree decodes every record of a store read by walkFile, checking each
// against the rules it was written under. A tree that is no paperbot store
// at all is a Foreign error, a newer schema digest.ErrSchemaTooNew; records
// that do not decode are listed in lost and left out. Strict (for opening),
// a damaged layout or schema version is an error; salvaging, it is noted in
// lost and what can be read is read.
func decodeTree(root *rawBucket, path string, salvaging bool) (contents, error) {
	c := contents{ledger: map[string]map[string]string{}, lists: map[string][]memory.Saved{}}
	if err := checkBuckets(root); err != nil {
		var de *DamageError
		if !salvaging || (errors.As(err, &de) && de.Kind == Foreign) {
			return contents{}, err
		}
		c.lost = append(c.lost, err.Error())
		for _, name := range bucketNames {
			if root.buckets[name] == nil {
				root.buckets[name] = newRawBucket()
			}
		}
	}
	v := findValue(root.buckets[string(bucketMeta)], keySchema)
	n, err := strconv.Atoi(string(v))
	switch {
	case n > SchemaVersion:
		return contents{}, fmt.Errorf("subscription store %s has schema version %d, this paperbot reads up to %d: run a newer paperbot or move the file away: %w",
			path, n, SchemaVersion, digest.ErrSchemaTooNew)
	case salvaging && (err != nil || n < 1):
		c.lost = append(c.lost, fmt.Sprintf("its schema version %s is unreadable; read as version %d", quote(v), SchemaVersion))
		n = SchemaVersion
	case v == nil:
		return contents{}, damagedf("it has no schema version")
	case err != nil || n < 1:
		return contents{}, damagedf("its schema version %s is not a version number", quote(v))
	}
	c.schema = n
	if err := checkVersionBuckets(root, n); err != nil {
		if !salvaging {
			return contents{}, err
		}
		c.lost = append(c.lost, err.Error())
	}
	for _, name := range bucketNames { // a version 1 store has no lists or votes yet
		if root.buckets[name] == nil {
			root.buckets[name] = newRawBucket()
		}
	}
	lose := func(bucket string, key []byte, format string, args ...any) {
		c.lost = append(c.lost, fmt.Sprintf("record %s/%s: %s", bucket, quote(key), fmt.Sprintf(format, args...)))
	}
	for _, kv := range root.buckets[string(bucketSubs)].values {
		var sub digest.Subscription
		if err := json.Unmarshal(kv.value, &sub); err != nil {
			lose("subscriptions", kv.key, "does not decode: %v", err)
		} else if sub.ID != string(kv.key) {
			lose("subscriptions", kv.key, "holds subscription %q", sub.ID)
		} else if err := sub.Validate(); err != nil { // Create stored only valid ones: tightening Validate needs a schema migration
			lose("subscriptions", kv.key, "%v", err)
		} else {
			c.subs = append(c.subs, sub)
		}
	}
	runs := map[digest.RunKey]digest.Run{}
	for _, kv := range root.buckets[string(bucketRuns)].values {
		r, err := decodeRun(kv.key, kv.value)
		if err != nil {
			lose("runs", kv.key, "%v", err)
			continue
		}
		runs[r.Key] = r
		c.runs = append(c.runs, r)
	}
	for _, kv := range root.buckets[string(bucketOpen)].values {
		key, err := digest.ParseRunKey(string(kv.key))
		if r, ok := runs[key]; err != nil || !ok || r.State.Done() {
			lose("open_runs", kv.key, "is not an unfinished run in the run log")
		}
	}
	ledger := root.buckets[string(bucketLedger)]
	for _, kv := range ledger.values {
		lose("ledger", kv.key, "is a value where a channel's bucket belongs")
	}
	for channel, papers := range ledger.buckets {
		for _, kv := range papers.values {
			if _, err := digest.ParseRunKey(string(kv.value)); err != nil || len(kv.key) == 0 {
				lose("ledger/"+channel, kv.key, "is not a paper ID with the run that posted it")
				continue
			}
			if c.ledger[channel] == nil {
				c.ledger[channel] = map[string]string{}
			}
			c.ledger[channel][string(kv.key)] = string(kv.value)
		}
		for name := range papers.buckets {
			lose("ledger/"+channel, []byte(name), "is a bucket where a paper belongs")
		}
	}
	decodeMemory(root, &c, lose)
	return c, nil
}

// optionalBuckets are top-level buckets a store gets on first use (see
// threads.go and links.go), in any schema version: a file without them is
// whole, one with them still ours.
var optionalBuckets = []string{string(bucketThreads), string(bucketLinks)}

// checkVersionBuckets refuses a layout older than the schema version says:
// a version 2 store without its lists and votes lost them.
func checkVersionBuckets(root *rawBucket, version int) error {
	if version < 2 {
		return nil
	}
	for _, name := range bucketNames {
		if root.buckets[name] == nil {
			return damagedf("it is schema version %d but has no %q bucket", version, name)
		}
	}
	return nil
}

// checkBuckets tells a paperbot store (whole or damaged) from a foreign file.
func checkBuckets(root *rawBucket) error {
	var have []string
	ours, extra := 0, 0
	for name := range root.buckets {
		have = append(have, name)
		switch {
		case slices.Contains(bucketNamesV1, name):
			ours++
		case slices.Contains(bucketNames, name) || slices.Contains(optionalBuckets, name):
			extra++ // version 2's (see checkVersionBuckets) or made on first use
		}
	}
	slices.Sort(have)
	switch {
	case ours == 0 && len(have) == 0:
		return foreignf("it is a bbolt database with no buckets (a paperbot store holds %s)", strings.Join(bucketNames, ", "))
	case ours == 0:
		return foreignf("it is a bbolt database holding buckets %s (a paperbot store holds %s)", quoteAll(have), strings.Join(bucketNames, ", "))
	case ours < len(bucketNamesV1) || len(have) > ours+extra:
		return damagedf("its buckets are %s, want exactly %s", quoteAll(have), strings.Join(bucketNames, ", "))
	case len(root.values) > 0:
		return damagedf("its top level holds values, where only buckets belong")
	}
	return nil
}

// decodeRun decodes a run record and checks it against its key.
func decodeRun(key, value []byte) (digest.Run, error) {
	k, err := digest.ParseRunKey(string(key))
	if err != nil {
		return digest.Run{}, err
	}
	var r digest.Run
	if err := json.Unmarshal(value, &r); err != nil {
		return digest.Run{}, fmt.Errorf("does not decode: %v", err)
	}
	switch {
	case r.Key != k:
		return digest.Run{}, fmt.Errorf("holds run %s", r.Key)
	case !slices.Contains([]digest.RunState{digest.Claimed, digest.Posting, digest.Posted, digest.Skipped, digest.Failed}, r.State):
		return digest.Run{}, fmt.Errorf("has unknown state %q", r.State)
	case r.ChannelID == "":
		return digest.Run{}, fmt.Errorf("has no channel")
	}
	return r, nil
}

func findValue(b *rawBucket, key []byte) []byte {
	for _, kv := range b.values {
		if string(kv.key) == string(key) {
			return kv.value
		}
	}
	return nil
}

// quote prints a key that may be binary garbage, shortened.
func quote(b []byte) string {
	if len(b) > 48 {
		return strconv.Quote(string(b[:48])) + "…"
	}
	return strconv.Quote(string(b))
}

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = quote([]byte(n))
	}
	return strings.Join(q, ", ")
}
