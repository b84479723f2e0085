//go:build !unix

package search

import "os"

// tryLock is a no-op where flock is unavailable; bleve's own file lock still
// keeps a second process from opening the live index.
func tryLock(*os.File) error { return nil }
