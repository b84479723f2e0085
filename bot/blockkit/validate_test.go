package blockkit

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/slack-go/slack"
)

func mrkdwn(s string) map[string]any { return map[string]any{"type": "mrkdwn", "text": s} }
func plain(s string) map[string]any  { return map[string]any{"type": "plain_text", "text": s} }

func section(text string) map[string]any {
	return map[string]any{"type": "section", "text": mrkdwn(text)}
}

func button(label, actionID string) map[string]any {
	return map[string]any{"type": "button", "text": plain(label), "action_id": actionID, "value": "v"}
}

func actions(elems ...any) map[string]any {
	return map[string]any{"type": "actions", "elements": elems}
}

func repeat(n int, f func(i int) any) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = f(i)
	}
	return out
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestValidateJSONLimits(t *testing.T) {
	long := func(n int) string { return strings.Repeat("é", n) } // multi-byte: counts code points
	buttons := func(n int) map[string]any {
		return actions(repeat(n, func(i int) any { return button("b", fmt.Sprintf("a%d", i)) })...)
	}
	fields := func(n, size int) map[string]any {
		return map[string]any{"type": "section", "fields": repeat(n, func(int) any { return mrkdwn(long(size)) })}
	}
	context := func(n int) map[string]any {
		return map[string]any{"type": "context", "elements": repeat(n, func(int) any { return mrkdwn("x") })}
	}
	header := func(s string) map[string]any { return map[string]any{"type": "header", "text": plain(s)} }
	withKey := func(m map[string]any, k string, v any) map[string]any { m[k] = v; return m }

	tests := []struct {
		name   string
		blocks []any
		block  int    // expected block index of the violation (-1 message level)
		rule   string // expected rule; "" means valid
	}{
		{"empty array", []any{}, 0, ""},
		{"50 blocks ok", repeat(50, func(int) any { return map[string]any{"type": "divider"} }), 0, ""},
		{"51 blocks", repeat(51, func(int) any { return map[string]any{"type": "divider"} }), -1, RuleTooMany},
		{"section text 3000 ok", []any{section(long(3000))}, 0, ""},
		{"section text 3001", []any{section(long(3001))}, 0, RuleTooLong},
		{"section text empty", []any{section("")}, 0, RuleRequired},
		{"section without text or fields", []any{map[string]any{"type": "section"}}, 0, RuleRequired},
		{"section 10 fields of 2000 ok", []any{fields(10, 2000)}, 0, ""},
		{"section 11 fields", []any{fields(11, 1)}, 0, RuleTooMany},
		{"section field 2001", []any{fields(1, 2001)}, 0, RuleTooLong},
		{"header 150 ok", []any{header(long(150))}, 0, ""},
		{"header 151", []any{header(long(151))}, 0, RuleTooLong},
		{"header mrkdwn", []any{map[string]any{"type": "header", "text": mrkdwn("x")}}, 0, RuleWrongType},
		{"header missing text", []any{map[string]any{"type": "header"}}, 0, RuleRequired},
		{"context 10 ok", []any{context(10)}, 0, ""},
		{"context 11", []any{context(11)}, 0, RuleTooMany},
		{"context empty", []any{context(0)}, 0, RuleTooFew},
		{"context image without alt", []any{map[string]any{"type": "context", "elements": []any{map[string]any{"type": "image", "image_url": "https://x/y.png"}}}}, 0, RuleRequired},
		{"actions 25 ok", []any{buttons(25)}, 0, ""},
		{"actions 26", []any{buttons(26)}, 0, RuleTooMany},
		{"actions empty", []any{buttons(0)}, 0, RuleTooFew},
		{"button text 75 ok", []any{actions(button(long(75), "a"))}, 0, ""},
		{"button text 76", []any{actions(button(long(76), "a"))}, 0, RuleTooLong},
		{"button text mrkdwn", []any{actions(map[string]any{"type": "button", "text": mrkdwn("x"), "action_id": "a"})}, 0, RuleWrongType},
		{"button value 2001", []any{actions(withKey(button("b", "a"), "value", long(2001)))}, 0, RuleTooLong},
		{"button url 3001", []any{actions(withKey(button("b", "a"), "url", "https://x/"+long(2991)))}, 0, RuleTooLong},
		{"button style bogus", []any{actions(withKey(button("b", "a"), "style", "green"))}, 0, RuleInvalidValue},
		{"action_id 255 ok", []any{actions(button("b", strings.Repeat("a", 255)))}, 0, ""},
		{"action_id 256", []any{actions(button("b", strings.Repeat("a", 256)))}, 0, RuleTooLong},
		{"action_id duplicate across blocks", []any{actions(button("b", "same")), actions(button("c", "same"))}, 1, RuleDuplicateID},
		{"block_id 256", []any{withKey(section("x"), "block_id", strings.Repeat("b", 256))}, 0, RuleTooLong},
		{"block_id duplicate", []any{withKey(section("x"), "block_id", "b1"), withKey(section("y"), "block_id", "b1")}, 1, RuleDuplicateID},
		{"unknown block type", []any{map[string]any{"type": "carousel_of_doom"}}, 0, RuleUnknownType},
		{"missing block type", []any{map[string]any{"text": mrkdwn("x")}}, 0, RuleRequired},
		{"unknown text type", []any{map[string]any{"type": "section", "text": map[string]any{"type": "markdown", "text": "x"}}}, 0, RuleUnknownType},
		{"emoji on mrkdwn", []any{map[string]any{"type": "section", "text": map[string]any{"type": "mrkdwn", "text": "x", "emoji": true}}}, 0, RuleInvalidValue},
		{"text not an object", []any{map[string]any{"type": "section", "text": "plain string"}}, 0, RuleWrongType},
		{"block not an object", []any{"divider"}, 0, RuleWrongType},
		{"accessory input not allowed", []any{withKey(section("x"), "accessory", map[string]any{"type": "plain_text_input", "action_id": "i"})}, 0, RuleUnknownType},
		{"accessory button ok", []any{withKey(section("x"), "accessory", button("b", "a"))}, 0, ""},
		{"image without alt_text", []any{map[string]any{"type": "image", "image_url": "https://x/y.png"}}, 0, RuleRequired},
		{"image url 3001", []any{map[string]any{"type": "image", "image_url": "https://x/" + long(2991), "alt_text": "a"}}, 0, RuleTooLong},
		{"rich_text without elements", []any{map[string]any{"type": "rich_text"}}, 0, RuleRequired},
		{"second block bad", []any{section("ok"), section(long(3001))}, 1, RuleTooLong},
		{"overflow 6 options", []any{actions(map[string]any{"type": "overflow", "action_id": "o", "options": repeat(6, func(i int) any {
			return map[string]any{"text": plain("o"), "value": fmt.Sprint(i)}
		})})}, 0, RuleTooMany},
		{"confirm title 101", []any{actions(withKey(button("b", "a"), "confirm", map[string]any{
			"title": plain(long(101)), "text": plain("sure?"), "confirm": plain("yes"), "deny": plain("no"),
		}))}, 0, RuleTooLong},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ValidateJSON(mustJSON(t, tt.blocks))
			if tt.rule == "" {
				if err != nil {
					t.Fatalf("want valid, got %v", err)
				}
				return
			}
			var es Errors
			if !errors.As(err, &es) {
				t.Fatalf("want Errors with %s at block %d, got %v", tt.rule, tt.block, err)
			}
			if !es.Has(tt.block, tt.rule) {
				t.Fatalf("want %s at block %d, got %v", tt.rule, tt.block, err)
			}
		})
	}
}

func TestValidateJSONRejectsNonArray(t *testing.T) {
	for _, in := range []string{`{"type":"divider"}`, `not json`, ``} {
		err := ValidateJSON([]byte(in))
		var e *Error
		if !errors.As(err, &e) || e.Rule != RuleInvalidJSON {
			t.Errorf("ValidateJSON(%q) = %v, want %s", in, err, RuleInvalidJSON)
		}
	}
}

func TestValidateViewAllowsHundredBlocks(t *testing.T) {
	blocks := make([]slack.Block, 100)
	for i := range blocks {
		blocks[i] = slack.NewDividerBlock()
	}
	if err := ValidateView(blocks); err != nil {
		t.Fatalf("100 blocks in a view: %v", err)
	}
	if err := Validate(blocks); err == nil {
		t.Fatal("100 blocks in a message: want error")
	}
	if err := ValidateView(append(blocks, slack.NewDividerBlock())); err == nil {
		t.Fatal("101 blocks in a view: want error")
	}
}

func TestValidateSlackGoBlocks(t *testing.T) {
	good := []slack.Block{
		slack.NewHeaderBlock(slack.NewTextBlockObject(slack.PlainTextType, "Results", false, false)),
		slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, "*Attention* is all you need", false, false), nil, nil),
		slack.NewContextBlock("", slack.NewTextBlockObject(slack.MarkdownType, "matched: attention", false, false)),
		slack.NewActionBlock("nav",
			slack.NewButtonBlockElement("next", "2", slack.NewTextBlockObject(slack.PlainTextType, "Next", false, false)),
		),
		slack.NewDividerBlock(),
	}
	if err := Validate(good); err != nil {
		t.Fatalf("good blocks: %v", err)
	}
	// slack-go marshals a nil text pointer as an absent field: the header is then invalid.
	bad := []slack.Block{slack.NewHeaderBlock(nil)}
	err := Validate(bad)
	var e *Error
	if !errors.As(err, &e) || e.Block != 0 || e.Rule != RuleRequired || e.Pointer != "/blocks/0/text" {
		t.Fatalf("header without text: got %v", err)
	}
}

func TestValidateMessage(t *testing.T) {
	blocks := []slack.Block{slack.NewDividerBlock()}
	tests := []struct {
		name   string
		text   string
		blocks []slack.Block
		rule   string
	}{
		{"text and blocks", "fallback", blocks, ""},
		{"text only", "hello", nil, ""},
		{"blocks without text", "", blocks, RuleNoText},
		{"blank text", "  \n", blocks, RuleNoText},
		{"nothing", "", nil, RuleNoText},
		{"text 40000 ok", strings.Repeat("x", MaxMessageText), nil, ""},
		{"text 40001", strings.Repeat("x", MaxMessageText+1), nil, RuleTooLong},
		{"bad blocks", "t", []slack.Block{slack.NewHeaderBlock(nil)}, RuleRequired},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ValidateMessage(tt.text, tt.blocks)
			if tt.rule == "" {
				if err != nil {
					t.Fatalf("want valid, got %v", err)
				}
				return
			}
			var es Errors
			if !errors.As(err, &es) || !es.Has(-2, tt.rule) {
				t.Fatalf("want %s, got %v", tt.rule, err)
			}
		})
	}
}

func TestErrorsNameBlockAndRule(t *testing.T) {
	err := ValidateJSON([]byte(`[{"type":"divider"},{"type":"header","text":{"type":"plain_text","text":"` + strings.Repeat("h", 151) + `"}}]`))
	if err == nil {
		t.Fatal("want error")
	}
	msg := err.Error()
	for _, want := range []string{"block 1", "header", RuleTooLong, "/blocks/1/text/text", "151"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
	got := err.(Errors).Messages()
	if len(got) != 1 || !strings.Contains(got[0], "[json-pointer:/blocks/1/text/text]") {
		t.Errorf("Messages() = %q", got)
	}
}
