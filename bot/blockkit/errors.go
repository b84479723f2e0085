package blockkit

import (
	"fmt"
	"strings"
)

// Rules name the kind of limit an *Error reports.
const (
	RuleInvalidJSON  = "invalid_json"  // not a JSON array of objects
	RuleTooMany      = "too_many"      // too many blocks, fields or elements
	RuleTooFew       = "too_few"       // an array that must not be empty is
	RuleTooLong      = "too_long"      // string longer than its limit
	RuleRequired     = "required"      // missing or empty required field
	RuleUnknownType  = "unknown_type"  // unknown block, element or text type
	RuleWrongType    = "wrong_type"    // a field of the wrong JSON kind or text type
	RuleDuplicateID  = "duplicate_id"  // block_id or action_id used twice
	RuleInvalidValue = "invalid_value" // a value outside its enumeration
	RuleNoText       = "no_text"       // message without text fallback
)

// Error is one violation. Block is the index of the offending block, or -1 for
// a message-level problem (block count, text fallback).
type Error struct {
	Block     int
	BlockType string
	Pointer   string // JSON pointer from the blocks array, e.g. "/blocks/3/text/text"
	Rule      string // one of the Rule constants
	Msg       string // human detail, e.g. "3001 characters, max 3000"
}

func (e *Error) Error() string {
	if e.Block < 0 {
		return fmt.Sprintf("blockkit: %s: %s [%s]", e.Rule, e.Msg, e.Pointer)
	}
	return fmt.Sprintf("blockkit: block %d (%s): %s: %s [%s]", e.Block, e.BlockType, e.Rule, e.Msg, e.Pointer)
}

// Errors lists every violation found (up to a cap), in document order. It
// unwraps to its elements, so errors.As(err, &e) with e *Error finds the first.
type Errors []*Error

func (es Errors) Error() string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "; ")
}

// Unwrap exposes each *Error to errors.Is and errors.As.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// Has reports whether some violation matches rule at block index block
// (block < -1 matches any block).
func (es Errors) Has(block int, rule string) bool {
	for _, e := range es {
		if e.Rule == rule && (block < -1 || e.Block == block) {
			return true
		}
	}
	return false
}

// Messages renders the violations the way Slack lists them in an
// invalid_blocks response: "detail [json-pointer:/blocks/0/text/text]".
func (es Errors) Messages() []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = fmt.Sprintf("%s: %s [json-pointer:%s]", e.Rule, e.Msg, e.Pointer)
	}
	return out
}
