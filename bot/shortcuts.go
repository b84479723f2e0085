package bot

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/slack-go/slack"

	"github.com/paperbot/paperbot/search"
)

// Callback IDs of the message shortcuts (the manifest declares them; its
// test checks them against Shortcuts).
const (
	ShortcutFindRelated = "find_related"
	ShortcutSavePaper   = "save_paper"
)

// Shortcut is a message shortcut as the manifest declares it.
type Shortcut struct {
	CallbackID  string
	Name        string // at most 24 characters
	Description string
}

// Shortcuts are the message shortcuts the bot answers.
var Shortcuts = []Shortcut{
	{ShortcutFindRelated, "Find related papers", "Papers like this message, shown only to you"},
	{ShortcutSavePaper, "Save paper", "Save the paper this message links to, to your reading list"},
}

// ShortcutInfo is a message shortcut: which one, on what message.
type ShortcutInfo struct {
	CallbackID string
	// Text is the message's text as Slack sent it (mrkdwn, links as
	// <url|label>); MessageTS its ts.
	Text      string
	MessageTS string
}

// maxShortcutText bounds the text "Find related papers" compares: an
// abstract's worth.
const maxShortcutText = 4000

// maxSaved bounds the papers one "Save paper" saves.
const maxSaved = 5

// fromMessageAction turns a message shortcut into a request answered
// privately through its response_url, as /paper is.
func (b *Bot) fromMessageAction(cb slack.InteractionCallback, envKey dedupKey) *Request {
	channel := cb.Channel.ID
	keys := []dedupKey{envKey}
	if cb.TriggerID != "" {
		keys = append(keys, dedupKey{key: "trigger:" + cb.TriggerID, keep: b.cfg.DedupTTL})
	}
	ts := cb.MessageTs
	if ts == "" {
		ts = cb.Message.Timestamp
	}
	return &Request{Source: SourceShortcut, User: cb.User.ID, Channel: channel, ResponseURL: cb.ResponseURL, TriggerID: cb.TriggerID,
		Invocation: b.cfg.SlashCommand + " ", Text: PlainText(cb.Message.Text),
		Shortcut: &ShortcutInfo{CallbackID: cb.CallbackID, Text: cb.Message.Text, MessageTS: ts}, dedup: keys}
}

// shortcut routes a message shortcut by its callback ID.
func (b *Bot) shortcut(ctx context.Context, req *Request) (*Reply, error) {
	switch req.Shortcut.CallbackID {
	case ShortcutFindRelated:
		return b.findRelated(ctx, req)
	case ShortcutSavePaper:
		return b.saveLinkedPapers(ctx, req)
	}
	b.log.Debug("unknown shortcut ignored", "callback_id", req.Shortcut.CallbackID)
	return nil, nil
}

// findRelated shows, privately, the papers like the message's text, as
// /paper does with pasted text.
func (b *Bot) findRelated(ctx context.Context, req *Request) (*Reply, error) {
	text := strings.TrimSpace(req.Text)
	if !hasWordRune(text) {
		return nil, refuse("find related", "That message has no text to find papers for (only files or emoji). Try it on a message with words, or use `"+
			EscapeInline(req.Invocation)+"QUERY`.")
	}
	if utf8.RuneCountInString(text) > maxShortcutText {
		text = string([]rune(text)[:maxShortcutText])
	}
	rep, err := b.showView(ctx, req, viewState{Kind: viewText, Arg: text}, audience{})
	if err != nil {
		return nil, err
	}
	rep.Visibility = Ephemeral
	return rep, nil
}

// messageLinks finds the links of a message as Slack sends its text:
// <url> and <url|label>, and bare http(s) URLs.
var messageLinks = regexp.MustCompile(`<(https?://[^|>\s]+)(?:\|[^>]*)?>|https?://[^\s<>|]+`)

// saveLinkedPapers saves the papers the message links to, by invoking the
// reading list's Save action (actSave) as a click on a Save button whose
// value is the paper ID would.
func (b *Bot) saveLinkedPapers(ctx context.Context, req *Request) (*Reply, error) {
	save, ok := b.table.action(actionSave)
	if !ok || b.memory == nil {
		return textReply(memoryOff, Ephemeral), nil
	}
	var ids []string
	outside := 0
	for _, m := range messageLinks.FindAllStringSubmatch(req.Shortcut.Text, -1) {
		link := m[1]
		if link == "" {
			link = m[0]
		}
		p, indexed, err := b.paperAtLink(ctx, link)
		switch {
		case search.KindOf(err) == search.NotFound:
			continue
		case err != nil:
			b.log.Warn("paper link not resolved for Save paper", "link", link, "err", err)
			continue
		case !indexed:
			outside++
			continue
		}
		if !slices.Contains(ids, p.ID) {
			ids = append(ids, p.ID)
		}
	}
	if len(ids) == 0 {
		msg := "I found no link to a paper in that message. Save paper works on messages with an arXiv, OpenReview, DOI or paper-page link."
		if outside > 0 {
			msg = "That paper is not in my index, so it cannot go on a reading list yet."
		}
		return nil, refuse("save paper", msg)
	}
	var out *Reply
	for i, id := range ids[:min(len(ids), maxSaved)] {
		click := *req
		click.Source = SourceAction
		click.Shortcut = nil
		click.Action = &ActionInfo{ID: actionSave, Value: id, MessageTS: req.Shortcut.MessageTS}
		rep, err := save(ctx, &click)
		if err != nil {
			return out, err
		}
		if i == 0 || out == nil {
			out = rep
			continue
		}
		if rep != nil {
			out = joinReplies(out, rep)
		}
	}
	if out != nil && out.Visibility == VisibilityDefault {
		out.Visibility = Ephemeral
	}
	return out, nil
}

// joinReplies puts b's blocks after a's, within a message's 50 blocks.
func joinReplies(a, b *Reply) *Reply {
	r := *a
	r.Text = Truncate(strings.TrimSpace(a.Text+" "+b.Text), 3000)
	r.Blocks = append(append([]slack.Block(nil), a.Blocks...), b.Blocks...)
	if len(r.Blocks) > 50 {
		r.Blocks = r.Blocks[:50]
	}
	r.SideEffect = a.SideEffect || b.SideEffect
	return &r
}
