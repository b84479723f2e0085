package bot

import (
	"testing"

	"github.com/paperbot/paperbot/search"
)

// Follow-up answers and unfurl cards, golden and within Slack's limits,
// hostile papers included.
func TestFollowUpAndUnfurlGolden(t *testing.T) {
	p, h := fixedPaper(), hostilePaper()
	finding := search.Result{Paper: p, Answer: "We apply our method to Alanine dipeptide and Chignolin, recovering their known important conformations."}
	outside := finding
	outside.ID = ""
	tests := []struct {
		name  string
		reply *Reply
	}{
		{"followup_answer", renderAnswerIn(p, 2, "Our approach enables systematic exploration of conformational space.")},
		{"followup_not_said", renderAnswerIn(p, 1, "")},
		{"followup_hostile", renderAnswerIn(h, 0, h.Abstract)},
		{"followup_compare", renderCompare([]compareRow{{Card: 1, Paper: p, Sentence: finding.Answer}, {Card: 3, Paper: h}})},
		{"unfurl_indexed", &Reply{Text: "unfurl", Blocks: unfurlBlocks(finding, true, 0)}},
		{"unfurl_outside", &Reply{Text: "unfurl", Blocks: unfurlBlocks(outside, false, 1)}},
		{"unfurl_hostile", &Reply{Text: "unfurl", Blocks: unfurlBlocks(search.Result{Paper: h, Answer: h.Abstract}, true, 2)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkSafe(t, tt.reply)
			checkGolden(t, tt.name, tt.reply)
		})
	}
}
