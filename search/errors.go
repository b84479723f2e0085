package search

import (
	"errors"
	"fmt"
)

// Kind classifies an error so callers at the edge (CLI, Slack) can choose
// what to tell the user without matching on text.
type Kind int

const (
	// Internal is a failure the user cannot fix; log it, apologise.
	Internal Kind = iota
	// Invalid is bad input: a malformed query, corpus file or record. Msg is
	// safe and useful to show the user.
	Invalid
	// NotFound is an unknown paper ID.
	NotFound
)

func (k Kind) String() string {
	switch k {
	case Invalid:
		return "invalid"
	case NotFound:
		return "not found"
	default:
		return "internal"
	}
}

// Error is the error type returned by this package.
type Error struct {
	Op   string // operation, e.g. "parse query", "load corpus"
	Kind Kind
	Msg  string // friendly, user-facing explanation
	Err  error  // underlying cause, if any
}

func (e *Error) Error() string {
	s := e.Op
	if e.Msg != "" {
		s += ": " + e.Msg
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// KindOf returns the Kind of err, Internal when err is not an *Error.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return Internal
}

// Message returns the user-facing message of err: Msg of an *Error of kind
// Invalid or NotFound, otherwise a generic line.
func Message(err error) string {
	var e *Error
	if errors.As(err, &e) && e.Kind != Internal && e.Msg != "" {
		return e.Msg
	}
	return "something went wrong on our side"
}

func invalidf(op, format string, args ...any) error {
	return &Error{Op: op, Kind: Invalid, Msg: fmt.Sprintf(format, args...)}
}
