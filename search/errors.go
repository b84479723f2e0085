package search

import (
	"fmt"

	"github.com/paperbot/paperbot/fault"
)

// Kind classifies an error so callers at the edge (CLI, Slack) can choose
// what to tell the user without matching on text. It is paperbot's one
// vocabulary of kinds, fault.Kind; this package uses Internal, Invalid
// (a malformed query, corpus file or record: Msg is safe and useful to show
// the user) and NotFound (an unknown paper ID).
type Kind = fault.Kind

// The kinds this package returns.
const (
	Internal = fault.Internal
	Invalid  = fault.Invalid
	NotFound = fault.NotFound
)

// Error is the error type returned by this package: an operation, its kind,
// a friendly message and the cause.
type Error = fault.Error

// KindOf returns the Kind of err, Internal when it carries none.
func KindOf(err error) Kind { return fault.KindOf(err) }

// Message returns the user-facing message of err: Msg of an *Error of kind
// Invalid or NotFound, otherwise a generic line.
func Message(err error) string {
	if msg, ok := fault.UserMessage(err); ok {
		return msg
	}
	return "something went wrong on our side"
}

func invalidf(op, format string, args ...any) error {
	return &Error{Op: op, Kind: Invalid, Msg: fmt.Sprintf(format, args...)}
}
