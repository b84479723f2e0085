package bot

import (
	"strings"
	"testing"

	"github.com/slack-go/slack"

	"github.com/paperbot/paperbot/bot/blockkit"
)

func TestCheckLimitsAgreesWithBlockkit(t *testing.T) {
	ok := renderResults(resultsView{Results: results("q", 9, 0, fixedResult(), hostileResult()), State: viewState{Kind: viewSearch, Arg: "q"}, PageSize: 2})
	section := func(n int) slack.Block { return slack.NewSectionBlock(mrkdwn(strings.Repeat("a", n)), nil, nil) }
	btn := func(id string) *slack.ButtonBlockElement { return button(id, "x", "v", "") }
	many := make([]slack.Block, 51)
	for i := range many {
		many[i] = slack.NewDividerBlock()
	}
	tests := []struct {
		name   string
		text   string
		blocks []slack.Block
		valid  bool
	}{
		{"rendered results", ok.Text, ok.Blocks, true},
		{"blank text", "  ", ok.Blocks, false},
		{"empty header", "x", []slack.Block{slack.NewHeaderBlock(plain(""))}, false},
		{"empty section", "x", []slack.Block{slack.NewSectionBlock(mrkdwn(""), nil, nil)}, false},
		{"51 blocks", "x", many, false},
		{"section of 3001", "x", []slack.Block{section(3001)}, false},
		{"section of 3000", "x", []slack.Block{section(3000)}, true},
		{"header of 151", "x", []slack.Block{slack.NewHeaderBlock(plain(strings.Repeat("h", 151)))}, false},
		{"duplicate action_id", "x", []slack.Block{slack.NewActionBlock("a", btn("same"), btn("same"))}, false},
		{"duplicate block_id", "x", []slack.Block{slack.NewActionBlock("a", btn("1")), slack.NewActionBlock("a", btn("2"))}, false},
		{"button label of 76", "x", []slack.Block{slack.NewActionBlock("a", slack.NewButtonBlockElement("b", "v", plain(strings.Repeat("l", 76))))}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			quick := checkLimits(tt.text, tt.blocks)
			full := blockkit.ValidateMessage(tt.text, tt.blocks)
			if (quick == nil) != tt.valid || (full == nil) != tt.valid {
				t.Errorf("checkLimits = %v, blockkit = %v, want valid=%v", quick, full, tt.valid)
			}
		})
	}
}
