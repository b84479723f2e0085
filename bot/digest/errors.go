package digest

import (
	"errors"

	"github.com/paperbot/paperbot/fault"
)

// Errors of this package and of Store implementations carry a fault.Kind:
// fault.Invalid for input a person can fix (the error's text says how),
// fault.NotFound for an unknown subscription or run, fault.Exists for a
// subscription ID already taken. Match them with errors.Is(err, fault.NotFound).
// The conditions below are specific to digests.
var (
	// ErrState is a run transition its current state does not allow, e.g.
	// marking a skipped run posted.
	ErrState = errors.New("run is not in a state that allows this")
	// ErrSchemaTooNew is a store written by a newer paperbot.
	ErrSchemaTooNew = errors.New("store schema is newer than this paperbot understands")
)

// invalidf is bad input with a friendly, user-facing message; its text is
// the message alone.
func invalidf(format string, args ...any) error {
	return fault.Errorf("", fault.Invalid, format, args...)
}
