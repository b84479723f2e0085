// Package blockkit checks Block Kit JSON against the limits Slack enforces, so
// that renderer tests and the Slack emulator (bot/slacktest) reject what Slack
// rejects with invalid_blocks, msg_too_long or no_text.
//
// Validation works on the JSON that goes on the wire: Validate marshals slack-go
// blocks first, so omitted empty fields, pointer text objects and custom
// MarshalJSON methods are judged exactly as Slack would see them.
//
// Every function is pure and safe for concurrent use. A nil return means the
// payload is within limits; otherwise the error is an Errors value listing each
// violation (*Error) with the block index, a JSON pointer and the rule broken.
//
// Lengths are counted in Unicode code points, like slack-go's own validators.
// Two checks are stricter than Slack's documentation, on purpose: action_id must
// be unique within the whole message (not only within its block), and a message
// carrying blocks must also carry a non-empty top-level text fallback (Slack
// only warns; we require it for notifications and screen readers).
package blockkit
