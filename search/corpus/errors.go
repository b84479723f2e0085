package corpus

import (
	"fmt"

	"github.com/paperbot/paperbot/fault"
)

// Error is the error type returned by this package (fault.Error): a
// malformed corpus file, record or pattern is an *Error of Kind Invalid.
type Error = fault.Error

// Invalid is the kind of a malformed corpus file, record or pattern.
const Invalid = fault.Invalid

func invalidf(op, format string, args ...any) error {
	return &Error{Op: op, Kind: Invalid, Msg: fmt.Sprintf(format, args...)}
}
