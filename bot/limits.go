package bot

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/slack-go/slack"

	"github.com/paperbot/paperbot/bot/blockkit"
)

// sectionBudget is how much text a section (or a text fallback) is cut to:
// Slack's limit with room for the ellipsis and escapes Truncate may add.
const sectionBudget = blockkit.MaxSectionText - 100

// checkLimits is a cheap, allocation-light check of the limits a rendering
// bug could break, on typed blocks (no JSON round trip), run on every reply:
// block count, text lengths of sections, headers and context elements, and
// buttons (label, value, unique action_id), and unique block_id. The full
// Block Kit validation (bot/blockkit) runs in tests and on Post.
func checkLimits(text string, blocks []slack.Block) error {
	switch {
	case strings.TrimSpace(text) == "":
		return fmt.Errorf("no text fallback")
	case utf8.RuneCountInString(text) > 40000:
		return fmt.Errorf("text fallback too long")
	case len(blocks) > 50:
		return fmt.Errorf("%d blocks, max 50", len(blocks))
	}
	blockIDs := map[string]bool{}
	actionIDs := map[string]bool{}
	uniqueID := func(seen map[string]bool, id string) error {
		if id == "" {
			return nil
		}
		if len(id) > 255 || seen[id] {
			return fmt.Errorf("id %q too long or repeated", id)
		}
		seen[id] = true
		return nil
	}
	tooLong := func(t *slack.TextBlockObject, max int) bool {
		return t != nil && utf8.RuneCountInString(t.Text) > max
	}
	for i, b := range blocks {
		var err error
		switch b := b.(type) {
		case *slack.SectionBlock:
			err = uniqueID(blockIDs, b.BlockID)
			if (b.Text == nil || strings.TrimSpace(b.Text.Text) == "") && len(b.Fields) == 0 || tooLong(b.Text, 3000) || len(b.Fields) > 10 {
				err = fmt.Errorf("section text empty or over the limit")
			}
		case *slack.HeaderBlock:
			err = uniqueID(blockIDs, b.BlockID)
			if b.Text == nil || strings.TrimSpace(b.Text.Text) == "" || tooLong(b.Text, 150) {
				err = fmt.Errorf("header empty or over 150 characters")
			}
		case *slack.ContextBlock:
			err = uniqueID(blockIDs, b.BlockID)
			if len(b.ContextElements.Elements) > 10 {
				err = fmt.Errorf("context with %d elements", len(b.ContextElements.Elements))
			}
			for _, e := range b.ContextElements.Elements {
				if t, ok := e.(*slack.TextBlockObject); ok && tooLong(t, 3000) {
					err = fmt.Errorf("context text over 3000 characters")
				}
			}
		case *slack.ActionBlock:
			err = uniqueID(blockIDs, b.BlockID)
			if len(b.Elements.ElementSet) > 25 {
				err = fmt.Errorf("actions with %d elements", len(b.Elements.ElementSet))
			}
			for _, e := range b.Elements.ElementSet {
				if btn, ok := e.(*slack.ButtonBlockElement); ok {
					if e := uniqueID(actionIDs, btn.ActionID); e != nil {
						err = e
					}
					if tooLong(btn.Text, 75) || utf8.RuneCountInString(btn.Value) > 2000 {
						err = fmt.Errorf("button label or value over the limit")
					}
				}
			}
		case *slack.DividerBlock:
			err = uniqueID(blockIDs, b.BlockID)
		}
		if err != nil {
			return fmt.Errorf("block %d: %w", i, err)
		}
	}
	return nil
}
