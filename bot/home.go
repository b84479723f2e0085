package bot

import (
	"context"
	"fmt"
	"strings"

	"github.com/slack-go/slack"

	"github.com/paperbot/paperbot/search"
)

// maxHomeVenues is how many venues App Home names before "and N more".
const maxHomeVenues = 12

// renderHome is the App Home view: what the bot does, every command with an
// example, how to mention or DM it, and the corpus size and venues.
func renderHome(cmds []Command, slash, mention string, stats search.Stats) []slack.Block {
	blocks := []slack.Block{
		slack.NewHeaderBlock(plain("Paper search for your team"), slack.HeaderBlockOptionBlockID("home_heading")),
		slack.NewSectionBlock(mrkdwn(fmt.Sprintf("I search %s and answer questions about them.", corpusSize(stats))),
			nil, nil, slack.SectionBlockOptionBlockID("home_intro")),
		slack.NewDividerBlock(),
		slack.NewSectionBlock(mrkdwn("*Commands*"), nil, nil, slack.SectionBlockOptionBlockID("home_commands")),
	}
	for i, c := range cmds {
		if i == maxCommands {
			break
		}
		blocks = append(blocks, slack.NewSectionBlock(mrkdwn(Truncate(fmt.Sprintf("`%s` — %s\nExample: `%s`",
			EscapeInline(slash+" "+c.Usage), Escape(c.Help), EscapeInline(slash+" "+c.Example)), sectionBudget)),
			nil, nil, slack.SectionBlockOptionBlockID("home_cmd_"+c.Name)))
	}
	blocks = append(blocks,
		slack.NewDividerBlock(),
		slack.NewSectionBlock(mrkdwn(Truncate("*Ask in a channel or a DM*\n"+
			"`"+EscapeInline(mention)+" any papers on protein conformations?` — I answer in a thread, the best sentence quoted first.\n"+
			"Or send me a direct message with a topic or a question.", sectionBudget)), nil, nil, slack.SectionBlockOptionBlockID("home_ask")),
		slack.NewContextBlock("home_corpus", mrkdwn(Truncate("Corpus: "+corpusSize(stats)+venuesLine(stats.Venues), sectionBudget))),
	)
	return blocks
}

func corpusSize(s search.Stats) string {
	if s.Papers == 1 {
		return "*1 paper*"
	}
	return fmt.Sprintf("*%d papers*", s.Papers)
}

// venuesLine is " from ICML 2025, NeurIPS 2024 and 3 more", or "".
func venuesLine(venues []string) string {
	var names []string
	for _, v := range venues {
		if v = EscapeInline(v); v != "" {
			names = append(names, Truncate(v, 60))
		}
	}
	if len(names) == 0 {
		return ""
	}
	if len(names) > maxHomeVenues {
		return " from " + strings.Join(names[:maxHomeVenues], ", ") + fmt.Sprintf(" and %d more", len(names)-maxHomeVenues)
	}
	return " from " + strings.Join(names, ", ")
}

// publishHome publishes the App Home view for one user, with any sections
// added through WithHomeBlocks.
func (b *Bot) publishHome(ctx context.Context, user string) error {
	blocks := renderHome(b.table.commands, b.cfg.SlashCommand, b.mentionName(), b.searcher.Stats())
	for _, f := range b.home {
		extra, err := f(ctx, user)
		if err != nil {
			b.log.Error("App Home section failed", "user", user, "err", err)
			continue
		}
		if len(blocks)+len(extra) <= 100 {
			blocks = append(blocks, extra...)
		}
	}
	_, err := b.api.PublishViewContext(ctx, slack.PublishViewContextRequest{
		UserID: user,
		View:   slack.HomeTabViewRequest{Type: slack.VTHomeTab, Blocks: slack.Blocks{BlockSet: blocks}},
	})
	return err
}
