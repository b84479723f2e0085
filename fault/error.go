package fault

import (
	"errors"
	"fmt"
)

// Error is a failure with its kind and, for kinds other than Internal, a
// message meant for the person who caused it.
type Error struct {
	Op   string // operation, e.g. "parse query", "subscribe"; may be empty
	Kind Kind
	Msg  string // friendly, user-facing explanation
	Err  error  // underlying cause, if any
}

// Error is "op: msg: cause", leaving out the parts that are empty.
func (e *Error) Error() string {
	s := e.Op
	for _, part := range []string{e.Msg, errText(e.Err)} {
		if part == "" {
			continue
		}
		if s != "" {
			s += ": "
		}
		s += part
	}
	return s
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is e's Kind, so errors.Is(err, fault.Invalid)
// finds an *Error of that kind anywhere in a chain.
func (e *Error) Is(target error) bool {
	k, ok := target.(Kind)
	return ok && k == e.Kind
}

// E returns an *Error of kind k whose message is shown to the user as it is.
func E(op string, k Kind, msg string) error { return &Error{Op: op, Kind: k, Msg: msg} }

// Errorf is E with a formatted message.
func Errorf(op string, k Kind, format string, args ...any) error {
	return &Error{Op: op, Kind: k, Msg: fmt.Sprintf(format, args...)}
}

// UserMessage returns the message written for the user of the outermost
// *Error in err's chain, when its kind is not Internal and it has one.
func UserMessage(err error) (string, bool) {
	var e *Error
	if errors.As(err, &e) && e.Kind != Internal && e.Msg != "" {
		return e.Msg, true
	}
	return "", false
}
