package bot

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/slack-go/slack"

	"github.com/paperbot/paperbot/bot/memory"

	"github.com/paperbot/paperbot/search"
)

// Limits for a full-paper message.
const (
	abstractChunk     = sectionBudget // characters per abstract section
	maxAbstractChunks = 12            // longer abstracts are cut with "…"
	maxCodeLinks      = 5
)

// paperView is one paper shown in full: `show ID` and "Show abstract".
type paperView struct {
	Paper search.Paper
	// Buttons adds "More like this" and, for private messages, "Share".
	Buttons bool
	Public  bool
	// SharedBy is the user who shared the message to the channel.
	SharedBy string
}

// renderPaper renders a paper with its whole abstract, split into sections
// at word boundaries. It is pure and within Slack's limits for any input.
func renderPaper(v paperView) *Reply {
	p := v.Paper
	heading := p.Title
	if strings.TrimSpace(heading) == "" {
		heading = p.Headline
	}
	if strings.TrimSpace(heading) == "" {
		heading = "Paper " + p.ID
	}
	blocks := []slack.Block{
		slack.NewHeaderBlock(plain(Truncate(EscapeInline(heading), 150)), slack.HeaderBlockOptionBlockID("heading")),
	}
	if v.SharedBy != "" {
		blocks = append(blocks, slack.NewContextBlock("shared_by", mrkdwn("Shared by "+userRef(v.SharedBy))))
	}
	meta := []string{metaLine(p)}
	if all := allAuthors(p.Authors); all != "" && len(p.Authors) > maxAuthors {
		meta = append(meta, "Authors: "+all)
	}
	if SafeURL(p.URL) {
		meta = append(meta, link(p.URL, "Paper page"))
	}
	blocks = append(blocks, slack.NewSectionBlock(mrkdwn(Truncate(joinNonEmpty(meta, "\n"), sectionBudget)), nil, nil, slack.SectionBlockOptionBlockID("meta")))
	for i, chunk := range splitText(Escape(strings.TrimSpace(p.Abstract)), abstractChunk, maxAbstractChunks) {
		blocks = append(blocks, slack.NewSectionBlock(mrkdwn(chunk), nil, nil, slack.SectionBlockOptionBlockID(fmt.Sprintf("abstract_%d", i))))
	}
	if !hasAbstract(p) {
		blocks = append(blocks, slack.NewSectionBlock(mrkdwn(noAbstract), nil, nil, slack.SectionBlockOptionBlockID("abstract_0")))
	}
	var code []slack.MixedElement
	for _, u := range p.CodeURLs {
		if SafeURL(u) && len(code) < maxCodeLinks {
			code = append(code, mrkdwn(":computer: "+link(u, Truncate(Escape(u), 80))))
		}
	}
	if len(code) > 0 {
		blocks = append(blocks, slack.NewContextBlock("code", code...))
	}
	if v.Buttons && p.ID != "" {
		acts := append([]slack.BlockElement{button(actionSimilar+":0", "More like this", p.ID, "")}, cardMemoryElements(p.ID, 0, memory.Tally{})...)
		if !v.Public {
			acts = append(acts, button(actionShare+":0", "Share to channel", viewState{Kind: viewPaper, Arg: p.ID}.encode(), "primary"))
		}
		blocks = append(blocks, slack.NewActionBlock("paper_actions", acts...))
	}
	text := Truncate(EscapeInline(heading), 200)
	if id := EscapeInline(p.ID); id != "" {
		text += " (" + id + ")"
	}
	return &Reply{Text: text, Blocks: blocks}
}

// allAuthors lists every author, escaped.
func allAuthors(authors []string) string {
	var names []string
	for _, a := range authors {
		if a = EscapeInline(a); a != "" {
			names = append(names, a)
		}
	}
	return strings.Join(names, ", ")
}

// splitText cuts escaped text into at most n pieces of at most size
// characters, at word boundaries where possible and never inside an entity.
// Text left over after n pieces ends the last piece with "…". Blank text gives
// no pieces.
func splitText(s string, size, n int) []string {
	var out []string
	for s = strings.TrimSpace(s); s != "" && len(out) < n; {
		if utf8.RuneCountInString(s) <= size {
			return append(out, s)
		}
		if len(out) == n-1 {
			return append(out, Truncate(s, size))
		}
		head := cutAt(s, size)
		out = append(out, strings.TrimSpace(head))
		s = strings.TrimSpace(s[len(head):])
	}
	return out
}

// cutAt returns the longest prefix of s of at most size characters that
// ends at white space (when there is some in its last third) and not inside
// an entity.
func cutAt(s string, size int) string {
	cut := 0
	for i := 0; i < size && cut < len(s); i++ {
		_, w := utf8.DecodeRuneInString(s[cut:])
		cut += w
	}
	head := s[:cut]
	if sp := strings.LastIndexAny(head, " \n\t"); sp > 0 && utf8.RuneCountInString(head[:sp]) >= size*2/3 {
		head = head[:sp]
	}
	if amp := strings.LastIndexByte(head, '&'); amp > 0 && !strings.Contains(head[amp:], ";") {
		head = head[:amp]
	}
	return head
}
