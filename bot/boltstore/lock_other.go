//go:build !unix

package boltstore

import (
	"os"
	"time"
)

// lockFile is a no-op where flock is unavailable; bbolt's own lock still
// keeps a second writer out.
func lockFile(*os.File, bool, time.Duration) error { return nil }
