package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// maxReplicaDirs bounds how many replicas one data directory holds.
const maxReplicaDirs = 32

// errReplicaDirInUse is what lockReplicaDir returns for a directory another
// process holds.
var errReplicaDirInUse = errors.New("in use by another process")

// claimReplicaDir gives a serve whose state is in the database a directory
// of its own under dataDir, for what each replica keeps for itself: its
// index, the corpus spooled while it builds, the embeddings cache and the
// mark of the catalog changes its index holds. Replicas sharing one data
// directory (compose replicas on one volume) each take the first free
// replica-N, held by a lock until release; a replica alone in its data
// directory (a Kubernetes pod) takes replica-1. A restarted replica takes a
// free one again, and so reuses an index that is there.
func claimReplicaDir(dataDir string) (dir string, release func(), err error) {
	for n := 1; n <= maxReplicaDirs; n++ {
		dir := filepath.Join(dataDir, "replica-"+strconv.Itoa(n))
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return "", nil, fmt.Errorf("PAPERBOT_DATA_DIR: %w", err)
		}
		release, err := lockReplicaDir(dir)
		if errors.Is(err, errReplicaDirInUse) {
			continue
		}
		if err != nil {
			return "", nil, fmt.Errorf("PAPERBOT_DATA_DIR: %w", err)
		}
		return dir, release, nil
	}
	return "", nil, fmt.Errorf("PAPERBOT_DATA_DIR %s: all %d replica directories are in use by other paperbot processes", dataDir, maxReplicaDirs)
}
