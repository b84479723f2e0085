//go:build unix

package main

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
)

// lockReplicaDir takes dir's lock file for this process's lifetime (until
// release); errReplicaDirInUse when another process holds it. The kernel
// drops the lock of a process that dies, kill -9 included.
func lockReplicaDir(dir string) (release func(), err error) {
	f, err := os.OpenFile(filepath.Join(dir, "LOCK"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, errReplicaDirInUse
		}
		return nil, err
	}
	return func() { f.Close() }, nil
}
