package bot

import (
	"fmt"
	"strings"

	"github.com/slack-go/slack"

	"github.com/paperbot/paperbot/search"
)

// maxCompared bounds the papers one comparison shows.
const maxCompared = 4

// renderAnswerIn answers a follow-up about card n (1-based; 0 when the
// paper is not numbered in the thread): the sentence of its abstract that
// answers, quoted, or one line saying the abstract does not say. It is pure.
func renderAnswerIn(p search.Paper, n int, sentence string) *Reply {
	ref := titleLine(p) + " `" + unmark(EscapeInline(p.ID)) + "`"
	if n > 0 {
		ref = fmt.Sprintf("#%d ", n) + ref
	}
	if strings.TrimSpace(sentence) == "" {
		text := ref + ": its abstract does not say."
		return &Reply{Text: Truncate(text, sectionBudget), Blocks: []slack.Block{
			slack.NewSectionBlock(mrkdwn(Truncate(text, sectionBudget)), nil, nil, slack.SectionBlockOptionBlockID("not_said")),
		}}
	}
	body := quote(sentence, budgetExcerpt) + "\n— " + ref
	return &Reply{Text: Truncate(EscapeInline(sentence), 300), Blocks: []slack.Block{
		slack.NewSectionBlock(mrkdwn(body), nil, nil, slack.SectionBlockOptionBlockID("answer")),
	}}
}

// compareRow is one paper of a comparison: its card number, and the
// sentence that answers ("" when none does).
type compareRow struct {
	Card     int
	Paper    search.Paper
	Sentence string
}

// renderCompare puts papers side by side, one section each: the card,
// title, meta line and answering sentence. It is pure.
func renderCompare(rows []compareRow) *Reply {
	blocks := []slack.Block{slack.NewHeaderBlock(plain("Side by side"), slack.HeaderBlockOptionBlockID("heading"))}
	var titles []string
	for i, r := range rows {
		s := r.Sentence
		line := quote(s, budgetExcerpt)
		if strings.TrimSpace(s) == "" {
			line = "_Its abstract does not say._"
		}
		head := titleLine(r.Paper)
		if r.Card > 0 {
			head = fmt.Sprintf("*#%d* ", r.Card) + head
		}
		blocks = append(blocks, slack.NewDividerBlock(),
			slack.NewSectionBlock(mrkdwn(joinNonEmpty([]string{head, metaLine(r.Paper), line}, "\n")), nil, nil,
				slack.SectionBlockOptionBlockID(fmt.Sprintf("compare_%d", i))))
		titles = append(titles, Truncate(EscapeInline(r.Paper.Title), 120))
	}
	return &Reply{Text: Truncate("Side by side: "+strings.Join(titles, " · "), 2000), Blocks: blocks}
}
