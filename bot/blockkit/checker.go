package blockkit

import (
	"fmt"
	"unicode/utf8"
)

// checker walks decoded JSON and collects violations for one payload.
type checker struct {
	errs      Errors
	block     int
	blockType string
	blockIDs  map[string]string // block_id -> pointer of first use
	actionIDs map[string]string // action_id -> pointer of first use
}

func (c *checker) fail(ptr, rule, format string, args ...any) {
	c.errs = append(c.errs, &Error{Block: c.block, BlockType: c.blockType, Pointer: ptr, Rule: rule, Msg: fmt.Sprintf(format, args...)})
}

// object returns v as a JSON object, reporting wrong_type otherwise.
func (c *checker) object(v any, ptr, what string) (map[string]any, bool) {
	o, ok := v.(map[string]any)
	if !ok {
		c.fail(ptr, RuleWrongType, "%s must be an object", what)
	}
	return o, ok
}

// str checks an optional (or required) string field and its length.
func (c *checker) str(o map[string]any, key, ptr string, required bool, max int) (string, bool) {
	v, present := o[key]
	p := ptr + "/" + key
	if !present || v == nil {
		if required {
			c.fail(p, RuleRequired, "%s is required", key)
		}
		return "", false
	}
	s, ok := v.(string)
	if !ok {
		c.fail(p, RuleWrongType, "%s must be a string", key)
		return "", false
	}
	if required && s == "" {
		c.fail(p, RuleRequired, "%s must not be empty", key)
		return s, false
	}
	if n := utf8.RuneCountInString(s); max > 0 && n > max {
		c.fail(p, RuleTooLong, "%s is %d characters, max %d", key, n, max)
	}
	return s, true
}

// array returns an array field; required reports a missing or empty one.
func (c *checker) array(o map[string]any, key, ptr string, required bool, max int) []any {
	v, present := o[key]
	p := ptr + "/" + key
	if !present || v == nil {
		if required {
			c.fail(p, RuleRequired, "%s is required", key)
		}
		return nil
	}
	a, ok := v.([]any)
	if !ok {
		c.fail(p, RuleWrongType, "%s must be an array", key)
		return nil
	}
	if required && len(a) == 0 {
		c.fail(p, RuleTooFew, "%s must not be empty", key)
	}
	if max > 0 && len(a) > max {
		c.fail(p, RuleTooMany, "%s has %d items, max %d", key, len(a), max)
	}
	return a
}

// enum checks an optional string field against allowed values.
func (c *checker) enum(o map[string]any, key, ptr string, allowed ...string) {
	s, ok := c.str(o, key, ptr, false, 0)
	if !ok {
		return
	}
	for _, a := range allowed {
		if s == a {
			return
		}
	}
	c.fail(ptr+"/"+key, RuleInvalidValue, "%s %q is not one of %v", key, s, allowed)
}

// id checks a block_id or action_id: length and uniqueness in the message.
func (c *checker) id(o map[string]any, key, ptr string, seen map[string]string) {
	s, ok := c.str(o, key, ptr, false, MaxID)
	if !ok || s == "" {
		return
	}
	p := ptr + "/" + key
	if first, dup := seen[s]; dup {
		c.fail(p, RuleDuplicateID, "%s %q already used at %s", key, s, first)
		return
	}
	seen[s] = p
}

// textField checks the text object under key; plainOnly demands plain_text.
func (c *checker) textField(o map[string]any, key, ptr string, required, plainOnly bool, max int) {
	v, present := o[key]
	if !present || v == nil {
		if required {
			c.fail(ptr+"/"+key, RuleRequired, "%s is required", key)
		}
		return
	}
	c.text(v, ptr+"/"+key, plainOnly, max)
}

// text checks a composition text object.
func (c *checker) text(v any, ptr string, plainOnly bool, max int) {
	o, ok := c.object(v, ptr, "text object")
	if !ok {
		return
	}
	typ, _ := c.str(o, "type", ptr, true, 0)
	switch typ {
	case "":
		return
	case "plain_text":
		if _, ok := o["verbatim"]; ok {
			c.fail(ptr+"/verbatim", RuleInvalidValue, "verbatim is only allowed on mrkdwn")
		}
	case "mrkdwn":
		if plainOnly {
			c.fail(ptr+"/type", RuleWrongType, "must be plain_text, not mrkdwn")
		}
		if _, ok := o["emoji"]; ok {
			c.fail(ptr+"/emoji", RuleInvalidValue, "emoji is only allowed on plain_text")
		}
	default:
		c.fail(ptr+"/type", RuleUnknownType, "text type %q is not plain_text or mrkdwn", typ)
	}
	if max > MaxTextObject || max <= 0 {
		max = MaxTextObject
	}
	c.str(o, "text", ptr, true, max)
}
