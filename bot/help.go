package bot

import (
	"fmt"
	"strings"

	"github.com/slack-go/slack"
)

// maxCommands keeps help (one section per command) well under 50 blocks.
const maxCommands = 40

// renderHelp lists every command of the table with its usage, what it does
// and an example, as typed where the user asked (invocation: "/paper ",
// "@paperbot " or "" in a DM). It is generated from the same table the
// router uses, so help can never fall out of date.
func renderHelp(cmds []Command, invocation, mention string) *Reply {
	blocks := []slack.Block{
		slack.NewHeaderBlock(plain("What I can do"), slack.HeaderBlockOptionBlockID("help_heading")),
		slack.NewSectionBlock(mrkdwn("I search ML paper abstracts and answer questions about them. "+
			"Replies to slash commands are only visible to you until you share them."), nil, nil,
			slack.SectionBlockOptionBlockID("help_intro")),
	}
	lines := []string{"What I can do:"}
	for i, c := range cmds {
		if i == maxCommands {
			break
		}
		usage := EscapeInline(invocation + c.Usage)
		example := EscapeInline(invocation + c.Example)
		blocks = append(blocks, slack.NewSectionBlock(mrkdwn(Truncate(
			fmt.Sprintf("`%s`\n%s\nExample: `%s`", usage, Escape(c.Help), example), sectionBudget)),
			nil, nil, slack.SectionBlockOptionBlockID("help_"+c.Name)))
		lines = append(lines, usage)
	}
	blocks = append(blocks, slack.NewContextBlock("help_more", mrkdwn(Truncate(
		"In a channel, mention "+EscapeInline(mention)+" with a question and I answer in a thread. "+
			"Reply in that thread to follow up (“what does the first one use?”, “compare 1 and 2”), no mention needed. "+
			"You can also send me a direct message, paste a paper link to see its card, or use the message shortcuts "+
			"*Find related papers* and *Save paper*.", sectionBudget))))
	return &Reply{Text: Truncate(strings.Join(lines, " "), 2000), Blocks: blocks, Visibility: VisibilityDefault}
}
