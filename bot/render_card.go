package bot

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/slack-go/slack"

	"github.com/paperbot/paperbot/bot/memory"
	"github.com/paperbot/paperbot/search"
)

// Budgets, in characters, for the parts of a card's section text. Their sum
// stays under Slack's 3000-character section limit whatever the paper holds.
const (
	budgetTitle   = 250
	budgetMeta    = 400
	budgetExcerpt = 900
	budgetWhy     = 400
	maxAuthors    = 3 // authors named before "et al."
	maxWhyTerms   = 8
)

// CardOptions tunes one paper card.
type CardOptions struct {
	// Index is the card's position in its message; it keeps block_id and
	// action_id unique when several cards share a message.
	Index int
	// Buttons adds "Show abstract" and "More like this".
	Buttons bool
	// NoAnswer shows the snippet even when the result has an answer sentence
	// (used when the answer is already quoted above the cards).
	NoAnswer bool
	// Why replaces the "matched" context line; it must be escaped mrkdwn.
	Why string
	// Tally is the paper's votes in the channel, shown on the vote buttons.
	Tally memory.Tally
}

// CardBlocks renders one search result as Block Kit: a section with the linked
// title (or headline), ID, shortened authors, venue and year, the answer
// sentence as a quote or else the highlighted snippet, and a code link; a
// context line saying why it matched; and optional buttons (Show abstract,
// More like this, Save, the votes and a menu). It is pure and
// its output is within Slack's limits for any input.
func CardBlocks(r search.Result, opts CardOptions) []slack.Block {
	i := opts.Index
	text := cardText(r, opts.NoAnswer)
	blocks := []slack.Block{
		slack.NewSectionBlock(mrkdwn(text), nil, nil, slack.SectionBlockOptionBlockID(fmt.Sprintf("card_%d", i))),
	}
	why := opts.Why
	if why == "" {
		why = whyLine(r.Matched)
	}
	if why == "" && r.Meaning > 0 {
		why = meaningLine
	}
	if why != "" {
		blocks = append(blocks, slack.NewContextBlock(fmt.Sprintf("why_%d", i), mrkdwn(Truncate(why, budgetWhy))))
	}
	if opts.Buttons && r.ID != "" {
		var acts []slack.BlockElement
		if hasAbstract(r.Paper) {
			acts = append(acts, button(fmt.Sprintf("%s:%d", actionAbstract, i), "Show abstract", r.ID, ""))
		}
		acts = append(acts, button(fmt.Sprintf("%s:%d", actionSimilar, i), "More like this", r.ID, ""))
		acts = append(acts, cardMemoryElements(r.ID, i, opts.Tally)...)
		blocks = append(blocks, slack.NewActionBlock(fmt.Sprintf("acts_%d", i), acts...))
	}
	return blocks
}

// cardText is the mrkdwn body of a card.
func cardText(r search.Result, noAnswer bool) string {
	lines := []string{titleLine(r.Paper), metaLine(r.Paper)}
	switch {
	case r.Answer != "" && !noAnswer:
		lines = append(lines, quote(r.Answer, budgetExcerpt))
	case len(r.Snippet) > 0:
		if s := snippetText(r.Snippet, budgetExcerpt); s != "" {
			lines = append(lines, s)
		}
	case !hasAbstract(r.Paper):
		lines = append(lines, noAbstract)
	}
	if c := codeLine(r.Paper); c != "" {
		lines = append(lines, c)
	}
	return joinNonEmpty(lines, "\n")
}

// noAbstract stands where a paper listed by its title alone would show its
// abstract.
const noAbstract = "_No abstract: the corpus lists this paper by its title only._"

// hasAbstract reports whether p has an abstract to show.
func hasAbstract(p search.Paper) bool { return strings.TrimSpace(p.Abstract) != "" }

// titleLine is the bold title, linked when the paper's URL is safe. Papers
// without a title show their headline; papers without either, their ID.
func titleLine(p search.Paper) string {
	t := p.Title
	if strings.TrimSpace(t) == "" {
		t = p.Headline
	}
	if strings.TrimSpace(t) == "" {
		t = "Untitled paper " + p.ID
	}
	label := unmark(Truncate(EscapeInline(t), budgetTitle))
	if label == "" {
		label = "Untitled paper"
	}
	// Bold goes outside the link: Slack renders "*<url|text>*" as a bold link.
	return "*" + link(p.URL, label) + "*"
}

// metaLine is "`ID` · A, B, C et al. · Venue Year".
func metaLine(p search.Paper) string {
	var parts []string
	if id := EscapeInline(p.ID); id != "" {
		parts = append(parts, "`"+strings.ReplaceAll(id, "`", "")+"`")
	}
	if a := ShortAuthors(p.Authors); a != "" {
		parts = append(parts, a)
	}
	if v := venueYear(p); v != "" {
		parts = append(parts, v)
	}
	return Truncate(strings.Join(parts, " · "), budgetMeta)
}

// ShortAuthors names up to three authors, escaped, adding "et al." when there
// are more: "A, B, C et al.". Blank names are skipped; no authors gives "".
func ShortAuthors(authors []string) string {
	var names []string
	for _, a := range authors {
		if a = EscapeInline(a); a != "" {
			names = append(names, Truncate(a, 60))
		}
	}
	if len(names) <= maxAuthors {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:maxAuthors], ", ") + " et al."
}

// venueYear is "ICML 2025", without repeating a year the venue already names.
func venueYear(p search.Paper) string {
	v := EscapeInline(p.Venue)
	if p.Year > 0 {
		y := strconv.Itoa(p.Year)
		if !strings.Contains(v, y) {
			v = strings.TrimSpace(v + " " + y)
		}
	}
	return Truncate(v, 80)
}

// quote renders text as a one-paragraph mrkdwn block quote.
func quote(text string, budget int) string {
	t := Truncate(EscapeInline(text), budget)
	if t == "" {
		return ""
	}
	return "> " + t
}

// snippetText renders a snippet as escaped mrkdwn with marked spans in bold,
// within budget characters. It cuts between spans or inside plain text, never
// inside a bold span, so the markup stays balanced.
func snippetText(s search.Snippet, budget int) string {
	var b strings.Builder
	used := 0
	lastRune := func() rune {
		r, _ := utf8.DecodeLastRuneInString(b.String())
		return r
	}
	for k, sp := range s {
		if sp.Mark {
			m := bold(EscapeInline(sp.Text))
			if m == "" {
				continue
			}
			// Slack bolds only at word edges; a zero-width space makes one when
			// the mark touches a letter (e.g. a stem inside a longer word).
			pre, post := "", ""
			if isWordRune(lastRune()) {
				pre = "\u200b"
			}
			if k+1 < len(s) {
				if r, _ := utf8.DecodeRuneInString(s[k+1].Text); isWordRune(r) {
					post = "\u200b"
				}
			}
			piece := pre + m + post
			n := utf8.RuneCountInString(piece)
			if used+n > budget-1 {
				b.WriteString("…")
				break
			}
			b.WriteString(piece)
			used += n
			continue
		}
		// A stray "*" in plain text could pair with the bold marks around it.
		t := strings.ReplaceAll(Escape(collapseSpace(sp.Text)), "*", "∗")
		if used == 0 {
			t = strings.TrimLeft(t, " ")
		}
		n := utf8.RuneCountInString(t)
		if used+n > budget {
			b.WriteString(Truncate(t, budget-used))
			break
		}
		b.WriteString(t)
		used += n
	}
	return strings.TrimSpace(b.String())
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// codeLine links the paper's first safe code URL.
func codeLine(p search.Paper) string {
	if !p.HasCode() {
		return ""
	}
	for _, u := range p.CodeURLs {
		if SafeURL(u) {
			return ":computer: " + link(u, "Code")
		}
	}
	return ""
}

// meaningLine says why a paper that shares none of the query's words was
// shown: the sentence model put it close to the question.
const meaningLine = "Close in meaning to what you asked (no word in common)"

// whyLine is the context line naming the query terms a paper matched.
func whyLine(matched []string) string {
	var terms []string
	seen := map[string]bool{}
	for _, m := range matched {
		t := bold(Truncate(EscapeInline(m), 40))
		if t == "" || seen[t] {
			continue
		}
		seen[t] = true
		terms = append(terms, t)
		if len(terms) == maxWhyTerms {
			break
		}
	}
	if len(terms) == 0 {
		return ""
	}
	return "Matched " + strings.Join(terms, ", ")
}

func joinNonEmpty(parts []string, sep string) string {
	var kept []string
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, sep)
}

// mrkdwn is a mrkdwn text object.
func mrkdwn(s string) *slack.TextBlockObject {
	return slack.NewTextBlockObject(slack.MarkdownType, s, false, false)
}

// plain is a plain_text text object; s must already be escaped.
func plain(s string) *slack.TextBlockObject {
	return slack.NewTextBlockObject(slack.PlainTextType, s, true, false)
}

// button is a button element; style is "", "primary" or "danger".
func button(actionID, label, value, style string) *slack.ButtonBlockElement {
	b := slack.NewButtonBlockElement(actionID, value, plain(Truncate(label, 75)))
	if style != "" {
		b.Style = slack.Style(style)
	}
	return b
}
