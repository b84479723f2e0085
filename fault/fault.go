// Package fault is paperbot's one vocabulary of error kinds. Packages that
// fail (search, digest, the stores, bot) say which kind of failure happened;
// the edges (the Slack bot, the command line) choose what to tell the user
// from the kind alone, never from the text.
//
// An error carries a kind in one of two ways: as an *Error, whose Msg is a
// friendly explanation the edge may show as it is, or by wrapping a Kind
// itself, which is an error (fmt.Errorf("subscription %s: %w", id,
// fault.NotFound)). errors.Is(err, fault.NotFound) matches both.
//
// This package imports only the standard library, so every other package
// may use it.
package fault

import "errors"

// Kind classifies a failure by what the user can do about it.
type Kind int

const (
	// Internal is a failure the user cannot fix: log it, apologise.
	Internal Kind = iota
	// Invalid is input a person can fix (a malformed query, corpus record,
	// schedule or setting); the message says how.
	Invalid
	// NotFound is an unknown paper, subscription or run.
	NotFound
	// Exists is something created twice, such as a subscription ID already
	// taken.
	Exists
	// Forbidden is a credential or permission Slack refused.
	Forbidden
	// Unavailable is a service that cannot be reached or used right now;
	// trying again later may work.
	Unavailable
)

// String is the kind's name as written in logs and error texts.
func (k Kind) String() string {
	switch k {
	case Invalid:
		return "invalid"
	case NotFound:
		return "not found"
	case Exists:
		return "already exists"
	case Forbidden:
		return "forbidden"
	case Unavailable:
		return "unavailable"
	}
	return "internal"
}

// Error makes a Kind an error of its own, for wrapping with %w.
func (k Kind) Error() string { return k.String() }

// Label is the kind as a metric label value: lower case, underscores.
func (k Kind) Label() string {
	switch k {
	case NotFound:
		return "not_found"
	case Exists:
		return "exists"
	}
	return k.String()
}

// KindOf returns the kind of err: that of the outermost *Error in its chain,
// else of a wrapped Kind, else Internal (nil included).
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	var k Kind
	if errors.As(err, &k) {
		return k
	}
	return Internal
}
