package search

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ErrInUse is wrapped by Open when another process owns Options.Dir.
var ErrInUse = errors.New("the index directory is in use by another process")

const lockFile = "LOCK"

// lockDir gives this process sole ownership of an index directory for as
// long as the index is open. Without it a second process (paperbot index
// while the bot runs) could build a new index there and delete the live one
// from under the first.
func lockDir(dir string) (release func() error, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, &Error{Op: opOpen, Kind: Internal, Msg: "cannot create the index directory", Err: err}
	}
	f, err := os.OpenFile(filepath.Join(dir, lockFile), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, &Error{Op: opOpen, Kind: Internal, Msg: "cannot create the index lock", Err: err}
	}
	if err := tryLock(f); err != nil {
		f.Close()
		return nil, &Error{Op: opOpen, Kind: Internal,
			Msg: fmt.Sprintf("the index in %s is in use by another process", dir), Err: ErrInUse}
	}
	return f.Close, nil // closing the file releases the lock
}
