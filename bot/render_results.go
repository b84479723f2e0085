package bot

import (
	"fmt"
	"strings"

	"github.com/slack-go/slack"

	"github.com/paperbot/paperbot/search"
)

// Action ID prefixes of the buttons the bot renders. An action_id is
// "prefix:n", n keeping it unique within its message; the router dispatches
// on the prefix.
const (
	actionAbstract = "abstract"
	actionSimilar  = "similar"
	actionPage     = "page"
	actionShare    = "share"
)

// blockNothing is the block_id of the "nothing relevant" section.
const blockNothing = "nothing"

// maxPageSize keeps a page of cards (4 blocks each) under 50 blocks.
const maxPageSize = 10

// resultsView is everything a page of results needs to render.
type resultsView struct {
	Results *search.Results
	// State re-creates the page from a button: the query or paper ID and
	// the page's offset.
	State viewState
	// Heading is the header text, unescaped ("Papers for “…”").
	Heading string
	// Public marks a message everyone in the channel sees (a mention's
	// thread, a DM, a shared message): no Share button there.
	Public bool
	// SharedBy is the user who shared the message to the channel.
	SharedBy string
	// QuoteAnswer quotes the top answer sentence before the cards.
	QuoteAnswer bool
	// Query is what the cards answer, for the thread's follow-ups.
	Query string
	// Help is how the user invokes help, e.g. "/paper help".
	Help     string
	PageSize int
}

// renderResults renders one page of results, or says plainly that nothing
// relevant was found. It is pure and its output is within Slack's limits.
func renderResults(v resultsView) *Reply {
	r := v.Results
	if r == nil || len(r.Results) == 0 {
		return nothingRelevant(v)
	}
	if r.NoMatch {
		return closestPapers(v)
	}
	results := r.Results
	if len(results) > maxPageSize {
		results = results[:maxPageSize]
	}
	var blocks []slack.Block
	quoted := false
	if v.QuoteAnswer && results[0].Answer != "" {
		top := results[0]
		blocks = append(blocks, slack.NewSectionBlock(mrkdwn(
			quote(top.Answer, budgetExcerpt)+"\n— "+titleLine(top.Paper)+" `"+unmark(EscapeInline(top.ID))+"`",
		), nil, nil, slack.SectionBlockOptionBlockID("answer")))
		quoted = true
	}
	heading := EscapeInline(v.Heading)
	if heading == "" {
		heading = "Papers"
	}
	blocks = append(blocks, slack.NewHeaderBlock(plain(Truncate(heading, 150)), slack.HeaderBlockOptionBlockID("heading")))
	if v.SharedBy != "" {
		blocks = append(blocks, slack.NewContextBlock("shared_by", mrkdwn("Shared by "+userRef(v.SharedBy))))
	}
	if line := missingLine(r.Missing); line != "" {
		blocks = append(blocks, slack.NewContextBlock("missing", mrkdwn(line)))
	}
	for i, res := range results {
		blocks = append(blocks, slack.NewDividerBlock())
		blocks = append(blocks, CardBlocks(res, CardOptions{Index: i, Buttons: true, NoAnswer: i == 0 && quoted})...)
	}
	blocks = append(blocks, slack.NewDividerBlock())
	first, last := r.Offset+1, r.Offset+len(results)
	blocks = append(blocks, slack.NewContextBlock("range", mrkdwn(fmt.Sprintf("Results %d–%d of %d", first, last, max(r.Total, last)))))
	if acts := pagerButtons(v, r.Offset, len(results), r.Total); len(acts) > 0 {
		blocks = append(blocks, slack.NewActionBlock("pager", acts...))
	}
	return &Reply{Text: resultsText(v.Heading, results), Blocks: blocks, shown: cardsOf(v.Query, results)}
}

// budgetMissing bounds the line naming the words no paper has.
const budgetMissing = 300

// missingLine says which of the query's words none of the papers has, so
// that papers on summarizing other documents are not taken for papers on
// legal ones; "" when they have them all.
func missingLine(words []string) string {
	if len(words) == 0 {
		return ""
	}
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = "“" + EscapeInline(w) + "”"
	}
	return Truncate("None of these papers has "+strings.Join(quoted, " or ")+".", budgetMissing)
}

// nothingFound reports whether r has nothing relevant to show: the index
// refused its weak matches (NoMatch), or the page is empty.
func nothingFound(r *search.Results) bool { return r == nil || r.NoMatch || len(r.Results) == 0 }

// pagerButtons are Previous, Next and (for private messages) Share.
func pagerButtons(v resultsView, offset, n, total int) []slack.BlockElement {
	size := v.PageSize
	if size <= 0 {
		size = n
	}
	var acts []slack.BlockElement
	if offset > 0 && !v.Public {
		prev := v.State
		prev.Offset = max(0, offset-size)
		acts = append(acts, button(actionPage+":prev", "◀ Previous", prev.encode(), ""))
	}
	if offset+n < total && (v.State.Kind == viewSearch || v.State.Kind == viewSimilar) {
		next := v.State
		next.Offset = offset + n
		label := "Next ▶"
		if v.Public {
			label = "More results"
		}
		acts = append(acts, button(actionPage+":next", label, next.encode(), ""))
	}
	if !v.Public && v.State.Kind != viewText {
		share := v.State
		share.Offset = offset
		acts = append(acts, button(actionShare+":0", "Share to channel", share.encode(), "primary"))
	}
	return acts
}

// resultsText is the top-level fallback: the heading and the titles listed.
func resultsText(heading string, results []search.Result) string {
	var b strings.Builder
	b.WriteString(EscapeInline(heading))
	b.WriteString(":")
	for i, r := range results {
		t := r.Title
		if strings.TrimSpace(t) == "" {
			t = r.Headline
		}
		if strings.TrimSpace(t) == "" {
			t = "Untitled paper"
		}
		fmt.Fprintf(&b, " %d. %s (%s)", i+1, Truncate(EscapeInline(t), 120), EscapeInline(r.ID))
		if i < len(results)-1 {
			b.WriteString(";")
		}
	}
	return Truncate(b.String(), 2000)
}

// nothingRelevant says plainly that no paper fits, with what to try next.
func nothingRelevant(v resultsView) *Reply {
	subject := nothingSubject(v)
	text := "Nothing relevant" + subject + "."
	body := "*Nothing relevant*" + subject + ".\nTry broader or fewer words, drop a filter or a rare term, or check the spelling."
	if v.Help != "" {
		body += " `" + EscapeInline(v.Help) + "` shows what I can do."
	}
	return &Reply{
		Text:   text,
		Blocks: []slack.Block{slack.NewSectionBlock(mrkdwn(body), nil, nil, slack.SectionBlockOptionBlockID(blockNothing))},
	}
}

// nothingSubject is what was asked, escaped, for a "nothing" line.
func nothingSubject(v resultsView) string {
	switch {
	case v.State.Kind == viewSearch && strings.TrimSpace(v.State.Arg) != "":
		return " for “" + Truncate(EscapeInline(v.State.Arg), 200) + "”"
	case v.State.Kind == viewSimilar:
		return " similar to `" + unmark(EscapeInline(v.State.Arg)) + "`"
	case v.State.Kind == viewText:
		return " like the text you pasted"
	}
	return ""
}

// closestShown is how many papers a "nothing relevant" reply still shows:
// enough to judge the miss, few enough not to pass for answers.
const closestShown = 3

// closestPapers says in one line that nothing is really relevant, then shows
// the closest papers beneath it (no answer quoted above them, no paging):
// the user sees what the corpus has near the question instead of a bare
// "nothing". Each card shows its sentence nearest to an answer, as the CLI
// does, so a paper the refusal wrongly passed over still says its finding.
func closestPapers(v resultsView) *Reply {
	results := v.Results.Results
	if len(results) > closestShown {
		results = results[:closestShown]
	}
	subject := nothingSubject(v)
	blocks := []slack.Block{slack.NewSectionBlock(mrkdwn("*Nothing really relevant*"+subject+". The closest papers:"), nil, nil,
		slack.SectionBlockOptionBlockID(blockNothing))}
	for i, res := range results {
		blocks = append(blocks, slack.NewDividerBlock())
		blocks = append(blocks, CardBlocks(res, CardOptions{Index: i, Buttons: true})...)
	}
	return &Reply{Text: "Nothing really relevant" + subject + ". " + resultsText("The closest papers", results), Blocks: blocks,
		shown: cardsOf(v.Query, results)}
}

// userRef mentions a Slack user by ID when it looks like one, so that
// "shared by" can never carry anything but a user reference.
func userRef(id string) string {
	if isSlackID(id) {
		return "<@" + id + ">"
	}
	return EscapeInline(id)
}

// isSlackID reports whether s looks like a Slack user, bot or channel ID.
func isSlackID(s string) bool {
	if len(s) < 2 || len(s) > 32 {
		return false
	}
	for _, r := range s {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
