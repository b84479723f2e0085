//go:build !unix

package main

import (
	"os"
	"path/filepath"
)

// lockReplicaDir cannot lock without flock: each process takes replica-1,
// so replicas sharing one data directory need a Unix host.
func lockReplicaDir(dir string) (release func(), err error) {
	f, err := os.OpenFile(filepath.Join(dir, "LOCK"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	return func() { f.Close() }, nil
}
