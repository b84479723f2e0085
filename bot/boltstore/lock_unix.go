//go:build unix

package boltstore

import (
	"errors"
	"os"
	"syscall"
	"time"
)

// lockFile takes flock on f, shared or exclusive, as bbolt does (so it
// contends with bbolt's own lock), retrying until timeout. It fails with
// ErrLocked; closing f releases the lock.
func lockFile(f *os.File, exclusive bool, timeout time.Duration) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	deadline := time.Now().Add(timeout)
	for {
		err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return err
		}
		if time.Now().After(deadline) {
			return ErrLocked
		}
		time.Sleep(20 * time.Millisecond) // what else is there to do while another process holds it
	}
}
