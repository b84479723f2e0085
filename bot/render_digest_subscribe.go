package bot

import (
	"fmt"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/search"
)

// maxListedSubs bounds the subscriptions one list message shows (one block
// each, under Slack's 50).
const maxListedSubs = 40

// renderSubscribePreview is the private preview of /paper subscribe: the
// schedule, how many papers match now and the top three, Confirm and Cancel.
// With newDays > 0 (papers come from followed sources) res are the papers
// that arrived in the last newDays days, what the first digest reaches back
// to.
func renderSubscribePreview(p pendingSub, res *search.Results, channel string, papers int, next time.Time, newDays int) *Reply {
	topic := EscapeInline(p.Topic)
	head := fmt.Sprintf("*Subscribe <#%s> to “%s”?*\n:calendar: %s — first digest %s.", channel, topic,
		EscapeInline(p.Schedule.String()), slackDate(next))
	var match string
	switch {
	case (res == nil || res.NoMatch || len(res.Results) == 0) && newDays > 0:
		match = fmt.Sprintf("Nothing that arrived in the last %d days matches this topic: the digest stays quiet until matching papers arrive.", newDays)
	case res == nil || res.NoMatch || len(res.Results) == 0:
		match = "Nothing in the corpus matches this topic right now: the digest stays quiet until matching papers are added."
	default:
		var lines []string
		for _, r := range res.Results {
			lines = append(lines, "• "+titleLine(r.Paper))
		}
		when := "match now"
		if newDays > 0 {
			when = fmt.Sprintf("from the last %d days match", newDays)
		}
		match = fmt.Sprintf("*%s %s.* The top three:\n%s", matchCount(res.Total), when, strings.Join(lines, "\n"))
	}
	note := fmt.Sprintf("Each digest posts up to %d papers this channel has not seen, and nothing when there is nothing new.", papers)
	if newDays > 0 {
		note = fmt.Sprintf("Each digest posts up to %d papers that arrived since the digest before (the first reaches back %d days), and nothing when there is nothing new.", papers, newDays)
	}
	confirm := button(actionSubConfirm, "Confirm", p.encode(), "primary")
	cancel := button(actionSubCancel, "Cancel", "cancel", "")
	return &Reply{
		Text:       Truncate(fmt.Sprintf("Subscribe this channel to “%s”? %s", topic, EscapeInline(p.Schedule.String())), sectionBudget),
		Visibility: Ephemeral,
		Blocks: []slack.Block{
			slack.NewSectionBlock(mrkdwn(Truncate(head, sectionBudget)), nil, nil, slack.SectionBlockOptionBlockID("sub_head")),
			slack.NewSectionBlock(mrkdwn(Truncate(match, sectionBudget)), nil, nil, slack.SectionBlockOptionBlockID("sub_match")),
			slack.NewContextBlock("sub_note", mrkdwn(note)),
			slack.NewActionBlock("sub_buttons", confirm, cancel),
		},
	}
}

func matchCount(n int) string {
	if n == 1 {
		return "1 paper"
	}
	return fmt.Sprintf("%d papers", n)
}

// renderSubscribed confirms a new subscription.
func renderSubscribed(s digest.Subscription, slash string, next time.Time) *Reply {
	text := fmt.Sprintf(":white_check_mark: Subscribed <#%s> to “%s” (`%s`): %s. First digest %s. `%s` lists and manages digests.",
		s.ChannelID, EscapeInline(s.Topic), s.ID, EscapeInline(s.Schedule.String()), slackDate(next), EscapeInline(slash+" subscriptions"))
	return textReply(text, Ephemeral)
}

// subLine describes one subscription: topic, ID, schedule, next run (in the
// reader's time), creator, papers posted, and any pause.
func subLine(s digest.Subscription, now time.Time, withChannel bool) string {
	where := ""
	if withChannel {
		where = fmt.Sprintf(" in <#%s>", s.ChannelID)
	}
	line := fmt.Sprintf("*%s*%s `%s`\n%s", Truncate(EscapeInline(s.Topic), 200), where, s.ID, EscapeInline(s.Schedule.String()))
	if s.Paused {
		line += fmt.Sprintf(" · :double_vertical_bar: paused: %s", Truncate(EscapeInline(s.PauseReason), 300))
	} else {
		line += " · next " + slackDate(s.Schedule.Next(now))
	}
	line += fmt.Sprintf(" · by <@%s> · %s posted", s.CreatedBy, matchCount(s.PostedCount))
	return line
}

// renderSubscriptions lists a channel's subscriptions with an Unsubscribe
// button each.
func renderSubscriptions(subs []digest.Subscription, channel, slash string, now time.Time) *Reply {
	if len(subs) == 0 {
		return textReply(fmt.Sprintf("<#%s> has no digest subscriptions. Start one with `%s`.", channel,
			EscapeInline(slash+" subscribe graph neural networks at 09:00")), Ephemeral)
	}
	blocks := []slack.Block{slack.NewSectionBlock(mrkdwn(fmt.Sprintf("*Digests in <#%s>*", channel)), nil, nil,
		slack.SectionBlockOptionBlockID("subs_head"))}
	for i, s := range subs {
		if i == maxListedSubs {
			blocks = append(blocks, slack.NewContextBlock("subs_more",
				mrkdwn(fmt.Sprintf("…and %d more. `%s` stops one by ID.", len(subs)-maxListedSubs, EscapeInline(slash+" unsubscribe ID")))))
			break
		}
		blocks = append(blocks, slack.NewSectionBlock(mrkdwn(Truncate(subLine(s, now, false), sectionBudget)), nil,
			slack.NewAccessory(button(fmt.Sprintf("%s:%d", actionSubRemove, i), "Unsubscribe", s.ID, "danger")),
			slack.SectionBlockOptionBlockID(fmt.Sprintf("sub_%d", i))))
	}
	blocks = append(blocks, slack.NewContextBlock("subs_foot", mrkdwn("Times show in your own time zone.")))
	return &Reply{Text: fmt.Sprintf("%s in this channel", digestCount(len(subs))), Blocks: blocks, Visibility: Ephemeral}
}

func digestCount(n int) string {
	if n == 1 {
		return "1 digest"
	}
	return fmt.Sprintf("%d digests", n)
}

// renderHomeDigests is the App Home section listing a user's subscriptions
// across channels.
func renderHomeDigests(subs []digest.Subscription, slash string, now time.Time) []slack.Block {
	blocks := []slack.Block{slack.NewDividerBlock(),
		slack.NewSectionBlock(mrkdwn("*Your paper digests*"), nil, nil, slack.SectionBlockOptionBlockID("home_digests"))}
	if len(subs) == 0 {
		return append(blocks, slack.NewContextBlock("home_digests_none", mrkdwn(fmt.Sprintf(
			"You have no digest subscriptions. In a channel: `%s`.", EscapeInline(slash+" subscribe graph neural networks at 09:00")))))
	}
	for i, s := range subs {
		if i == 10 { // App Home holds 100 blocks; leave room for the rest of the page
			blocks = append(blocks, slack.NewContextBlock("home_digests_more",
				mrkdwn(fmt.Sprintf("…and %d more.", len(subs)-10))))
			break
		}
		blocks = append(blocks, slack.NewSectionBlock(mrkdwn(Truncate(subLine(s, now, true), sectionBudget)), nil, nil,
			slack.SectionBlockOptionBlockID(fmt.Sprintf("home_digest_%d", i))))
	}
	return blocks
}

// blocksText renders a message as readable plain text, for operators.
func blocksText(r Reply) string {
	var b strings.Builder
	for _, blk := range r.Blocks {
		switch v := blk.(type) {
		case *slack.HeaderBlock:
			fmt.Fprintf(&b, "# %s\n", v.Text.Text)
		case *slack.SectionBlock:
			if v.Text != nil {
				fmt.Fprintf(&b, "%s\n", v.Text.Text)
			}
		case *slack.ContextBlock:
			for _, e := range v.ContextElements.Elements {
				if t, ok := e.(*slack.TextBlockObject); ok {
					fmt.Fprintf(&b, "  %s\n", t.Text)
				}
			}
		}
	}
	if b.Len() == 0 {
		return r.Text
	}
	return b.String()
}
