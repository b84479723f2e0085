package slacktest

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/paperbot/paperbot/bot/blockkit"
)

// content is the validated text, blocks and metadata of a message.
type content struct {
	text     string
	blocks   json.RawMessage // nil when the request carried no blocks
	metadata *Metadata
}

// parseContent validates a message body the way Slack does for
// chat.postMessage and friends: blocks must be a JSON array within Block Kit
// limits (invalid_blocks_format, invalid_blocks), there must be something to
// show and, unless lenient, a non-empty text fallback next to blocks
// (no_text), text is at most 40,000 characters (msg_too_long), and metadata
// must be {"event_type":..., "event_payload":{...}} (invalid_metadata_format).
func parseContent(text, blocks, metadata string, hasAttachments, lenient bool) (content, *apiError) {
	c := content{text: text}
	if b := strings.TrimSpace(blocks); b != "" && b != "null" {
		var arr []json.RawMessage
		if json.Unmarshal([]byte(b), &arr) != nil {
			return c, fail("invalid_blocks_format")
		}
		if err := blockkit.ValidateJSON([]byte(b)); err != nil {
			return c, invalidBlocks("invalid_blocks", "", err)
		}
		if len(arr) > 0 {
			c.blocks = json.RawMessage(b)
		}
	}
	blank := strings.TrimSpace(text) == ""
	switch {
	case blank && c.blocks == nil && !hasAttachments:
		return c, fail("no_text")
	case blank && c.blocks != nil && !lenient:
		return c, fail("no_text")
	case utf8.RuneCountInString(text) > blockkit.MaxMessageText:
		return c, fail("msg_too_long")
	}
	if m := strings.TrimSpace(metadata); m != "" && m != "null" {
		var md Metadata
		dec := json.NewDecoder(strings.NewReader(m))
		if dec.Decode(&md) != nil || md.EventType == "" {
			return c, fail("invalid_metadata_format")
		}
		c.metadata = &md
	}
	return c, nil
}

// invalidBlocks builds Slack's error for blocks outside the limits:
// {"error":code,"errors":[...],"response_metadata":{"messages":["[ERROR] ..."]}}.
// prefix re-roots JSON pointers (views nest blocks under /view).
func invalidBlocks(code, prefix string, err error) *apiError {
	var es blockkit.Errors
	var msgs []string
	if errors.As(err, &es) {
		msgs = es.Messages()
	} else {
		msgs = []string{err.Error()}
	}
	meta := make([]string, len(msgs))
	for i, m := range msgs {
		if prefix != "" {
			msgs[i] = strings.Replace(m, "[json-pointer:/", "[json-pointer:"+prefix+"/", 1)
		}
		meta[i] = "[ERROR] " + msgs[i]
	}
	return &apiError{code: code, extra: map[string]any{
		"errors":            msgs,
		"response_metadata": map[string]any{"messages": meta},
	}}
}

// rawJSONString returns the JSON text of a raw field, or "" when absent.
func rawJSONString(raw json.RawMessage) string {
	if len(bytes.TrimSpace(raw)) == 0 {
		return ""
	}
	return string(raw)
}
