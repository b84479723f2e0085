package bottest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/slack-go/slack"

	"github.com/paperbot/paperbot/bot/slacktest"
)

// BotMessages keeps the messages the app posted (not simulated users' or
// other bots').
func BotMessages(ms []slacktest.Message) []slacktest.Message {
	var out []slacktest.Message
	for _, m := range ms {
		if m.Source != "user" {
			out = append(out, m)
		}
	}
	return out
}

// BlockTexts decodes a recorded message's blocks and returns its text and
// every text in its blocks, one per line.
func BlockTexts(t testing.TB, m slacktest.Message) string {
	t.Helper()
	var blocks []map[string]any
	if len(m.Blocks) > 0 {
		if err := json.Unmarshal(m.Blocks, &blocks); err != nil {
			t.Fatalf("blocks: %v", err)
		}
	}
	return strings.Join(append([]string{m.Text}, Texts(blocks)...), "\n")
}

// Texts gathers every "text" string in decoded JSON blocks.
func Texts(v any) []string {
	var out []string
	collectText(v, &out)
	return out
}

func collectText(v any, out *[]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if s, ok := e.(string); ok && k == "text" {
				*out = append(*out, s)
				continue
			}
			collectText(e, out)
		}
	case []any:
		for _, e := range x {
			collectText(e, out)
		}
	case []map[string]any:
		for _, e := range x {
			collectText(e, out)
		}
	}
}

// HasButton reports whether a recorded message has a button actionID.
func HasButton(t testing.TB, m slacktest.Message, actionID string) bool {
	t.Helper()
	return strings.Contains(string(m.Blocks), `"action_id":"`+actionID+`"`)
}

// Blocks decodes a recorded message's blocks into slack-go blocks.
func Blocks(t testing.TB, m slacktest.Message) []slack.Block {
	t.Helper()
	if len(m.Blocks) == 0 {
		return nil
	}
	var bs slack.Blocks
	if err := json.Unmarshal(m.Blocks, &bs); err != nil {
		t.Fatalf("decode blocks: %v", err)
	}
	return bs.BlockSet
}

// FirstBlockOnly is m with only its first block and no text.
func FirstBlockOnly(t testing.TB, m slacktest.Message) slacktest.Message {
	t.Helper()
	var blocks []json.RawMessage
	if err := json.Unmarshal(m.Blocks, &blocks); err != nil || len(blocks) == 0 {
		t.Fatalf("message has no blocks: %v", err)
	}
	m.Text = ""
	m.Blocks, _ = json.Marshal(blocks[:1])
	return m
}
