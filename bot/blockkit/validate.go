package blockkit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/slack-go/slack"
)

// ValidateJSON checks a JSON array of message blocks against Slack's limits
// (at most MaxMessageBlocks blocks). It returns nil or an Errors value.
func ValidateJSON(blocks []byte) error {
	return validateJSON(blocks, MaxMessageBlocks)
}

// ValidateViewJSON is ValidateJSON for a modal or Home tab view, which may hold
// up to MaxViewBlocks blocks.
func ValidateViewJSON(blocks []byte) error {
	return validateJSON(blocks, MaxViewBlocks)
}

// Validate marshals blocks as slack-go sends them and checks the result with
// ValidateJSON.
func Validate(blocks []slack.Block) error {
	raw, err := marshal(blocks)
	if err != nil {
		return err
	}
	return ValidateJSON(raw)
}

// ValidateView is Validate for the blocks of a modal or Home tab view.
func ValidateView(blocks []slack.Block) error {
	raw, err := marshal(blocks)
	if err != nil {
		return err
	}
	return ValidateViewJSON(raw)
}

// ValidateMessage checks a whole message: the blocks as Validate does, and the
// top-level text, which must be non-empty (whether or not blocks are sent; it
// is the notification and screen-reader fallback) and at most MaxMessageText
// characters.
func ValidateMessage(text string, blocks []slack.Block) error {
	raw, err := marshal(blocks)
	if err != nil {
		return err
	}
	return ValidateMessageJSON(text, raw)
}

// ValidateMessageJSON is ValidateMessage over already-marshalled blocks; nil or
// empty blocks mean a text-only message.
func ValidateMessageJSON(text string, blocks []byte) error {
	var errs Errors
	switch n := utf8.RuneCountInString(text); {
	case len(bytes.TrimSpace([]byte(text))) == 0:
		errs = append(errs, &Error{Block: -1, Pointer: "/text", Rule: RuleNoText, Msg: "top-level text fallback is missing or blank"})
	case n > MaxMessageText:
		errs = append(errs, &Error{Block: -1, Pointer: "/text", Rule: RuleTooLong, Msg: fmt.Sprintf("%d characters, max %d", n, MaxMessageText)})
	}
	if len(bytes.TrimSpace(blocks)) > 0 && !bytes.Equal(bytes.TrimSpace(blocks), []byte("null")) {
		if err := ValidateJSON(blocks); err != nil {
			if es, ok := err.(Errors); ok {
				errs = append(errs, es...)
			} else {
				return err
			}
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}

func marshal(blocks []slack.Block) ([]byte, error) {
	if blocks == nil {
		blocks = []slack.Block{}
	}
	raw, err := json.Marshal(blocks)
	if err != nil {
		return nil, Errors{{Block: -1, Pointer: "/blocks", Rule: RuleInvalidJSON, Msg: "cannot marshal blocks: " + err.Error()}}
	}
	return raw, nil
}

func validateJSON(raw []byte, maxBlocks int) error {
	var blocks []any
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return Errors{{Block: -1, Pointer: "/blocks", Rule: RuleInvalidJSON, Msg: "blocks must be a JSON array: " + err.Error()}}
	}
	c := &checker{blockIDs: map[string]string{}, actionIDs: map[string]string{}}
	if len(blocks) > maxBlocks {
		c.errs = append(c.errs, &Error{Block: -1, Pointer: "/blocks", Rule: RuleTooMany, Msg: fmt.Sprintf("%d blocks, max %d", len(blocks), maxBlocks)})
	}
	for i, b := range blocks {
		if len(c.errs) >= maxReportedFailures {
			break
		}
		c.block, c.blockType = i, ""
		c.checkBlock(b, fmt.Sprintf("/blocks/%d", i))
	}
	if len(c.errs) == 0 {
		return nil
	}
	return c.errs
}
