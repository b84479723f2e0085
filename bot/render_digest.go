package bot

import (
	"fmt"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/search"
)

// DigestPapersPerMessage is how many papers one digest message holds; more
// continue in its thread. Three blocks a paper keeps a message far under
// Slack's 50.
const DigestPapersPerMessage = 10

// digestRender tunes RenderDigest.
type digestRender struct {
	Slash   string // the slash command, e.g. "/paper"
	Buttons bool   // per-paper "Show abstract" / "More like this"
	Preview bool   // an ephemeral preview, not the posted digest
	// IDBase keeps block IDs unique when several digests share a message.
	IDBase int
}

// RenderDigest renders a digest as Slack messages: the first is posted to the
// channel, the rest (when there are more than DigestPapersPerMessage papers)
// go in its thread. Pure; every message is within Slack's limits for any
// input, with a real text fallback.
func RenderDigest(d digest.Digest, slash string) []Reply {
	return renderDigest(d, digestRender{Slash: slash, Buttons: true})
}

func renderDigest(d digest.Digest, o digestRender) []Reply {
	topic := EscapeInline(d.Subscription.Topic)
	day := d.Key.Day.Pretty()
	id := func(name string) string {
		if o.IDBase == 0 {
			return name
		}
		return fmt.Sprintf("%s_%d", name, o.IDBase)
	}
	manage := "Manage: `" + EscapeInline(o.Slash+" subscriptions") + "` · subscription `" + EscapeInline(d.Subscription.ID) + "`"
	if d.NothingNew || len(d.Papers) == 0 {
		text := Truncate(fmt.Sprintf("Nothing new today on “%s” (%s).", topic, day), sectionBudget)
		if o.Preview {
			text = Truncate(fmt.Sprintf("Nothing new on “%s” right now: the digest due %s would not post.", topic, slackDate(d.Scheduled)), sectionBudget)
		}
		return []Reply{{Text: text, Visibility: InChannel, Blocks: []slack.Block{
			slack.NewSectionBlock(mrkdwn(text), nil, nil, slack.SectionBlockOptionBlockID(id("digest_nothing"))),
			slack.NewContextBlock(id("digest_footer"), mrkdwn(manage)),
		}}}
	}
	n := len(d.Papers)
	var out []Reply
	for start := 0; start < n; start += DigestPapersPerMessage {
		end := min(start+DigestPapersPerMessage, n)
		var blocks []slack.Block
		var text string
		if start == 0 {
			head := "New papers: " + topic
			if o.Preview {
				head = "Next digest: " + topic
			}
			suffix := " · " + day
			blocks = append(blocks,
				slack.NewHeaderBlock(plain(Truncate(head, 150-len([]rune(suffix)))+suffix), slack.HeaderBlockOptionBlockID(id("digest_header"))),
				slack.NewContextBlock(id("digest_about"), mrkdwn(Truncate(digestAbout(d, o.Preview), sectionBudget))))
			text = fmt.Sprintf("%s — %s: %s", head, day, papersCount(n))
		} else {
			note := fmt.Sprintf("Continued: papers %d–%d of %d on “%s” (%s)", start+1, end, n, topic, day)
			blocks = append(blocks, slack.NewContextBlock(id("digest_more"), mrkdwn(Truncate(note, sectionBudget))))
			text = note
		}
		for i := start; i < end; i++ {
			why := digestWhy(d.Papers[i], topic)
			if l, ok := d.Lifted[d.Papers[i].ID]; ok {
				why = liftedWhy(l) + " · " + why
			}
			blocks = append(blocks, CardBlocks(d.Papers[i], CardOptions{Index: o.IDBase + i, Buttons: o.Buttons, Why: why})...)
		}
		if start == 0 {
			blocks = append(blocks, slack.NewContextBlock(id("digest_footer"), mrkdwn(manage)))
		}
		out = append(out, Reply{Text: Truncate(text, sectionBudget), Blocks: blocks, Visibility: InChannel})
	}
	return out
}

// digestAbout is the line under the header: the day covered, how many
// papers, and for a catch-up digest that it is late.
func digestAbout(d digest.Digest, preview bool) string {
	day := d.Key.Day.Pretty()
	n := papersCount(len(d.Papers))
	switch {
	case preview:
		return fmt.Sprintf("If it ran now: %s this channel has not seen. Due %s.", n, slackDate(d.Scheduled))
	case d.Late:
		return fmt.Sprintf(":hourglass: Catch-up digest for *%s*: I was offline when it was due, so it comes late. %s this channel has not seen.", day, capitalize(n))
	}
	return fmt.Sprintf("*%s* · %s this channel has not seen · %s", day, n, EscapeInline(d.Subscription.Schedule.String()))
}

func papersCount(n int) string {
	if n == 1 {
		return "1 new paper"
	}
	return fmt.Sprintf("%d new papers", n)
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// liftedWhy is the line of a card the channel's votes moved up.
func liftedWhy(l digest.Lift) string {
	return fmt.Sprintf(":arrow_up: Because this channel liked “%s” (up from #%d)", unmark(Truncate(EscapeInline(l.Because), 100)), l.From)
}

// digestWhy is the "why this" line of a digest card.
func digestWhy(r search.Result, escapedTopic string) string {
	if w := whyLine(r.Matched); w != "" {
		return "Why this: matches " + strings.TrimPrefix(w, "Matched ") + " from your topic"
	}
	return Truncate("Why this: on your topic “"+escapedTopic+"”", budgetWhy)
}

// slackDate formats an instant so each reader sees it in their own time zone
// (Slack date formatting), with a UTC fallback for clients that cannot.
func slackDate(t time.Time) string {
	return fmt.Sprintf("<!date^%d^{date_short_pretty} at {time}|%s>", t.Unix(), t.UTC().Format("Mon 2 Jan 2006 15:04 UTC"))
}
