package digest

import (
	"errors"
	"fmt"
)

// Errors returned by Store implementations and this package; match them with errors.Is.
var (
	// ErrInvalid marks input a person can fix; the error's text says how.
	ErrInvalid = errors.New("invalid")
	// ErrNotFound is an unknown subscription or run.
	ErrNotFound = errors.New("not found")
	// ErrExists is a subscription ID that is already taken.
	ErrExists = errors.New("already exists")
	// ErrState is a run transition its current state does not allow, e.g.
	// marking a skipped run posted.
	ErrState = errors.New("run is not in a state that allows this")
	// ErrSchemaTooNew is a store written by a newer paperbot.
	ErrSchemaTooNew = errors.New("store schema is newer than this paperbot understands")
)

// InvalidError is bad input with a friendly, user-facing message. It matches ErrInvalid.
type InvalidError struct{ Msg string }

func (e *InvalidError) Error() string        { return e.Msg }
func (e *InvalidError) Is(target error) bool { return target == ErrInvalid }

func invalidf(format string, args ...any) error {
	return &InvalidError{Msg: fmt.Sprintf(format, args...)}
}
