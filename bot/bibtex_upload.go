package bot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/slack-go/slack"

	"github.com/paperbot/paperbot/bot/bibtex"
	"github.com/paperbot/paperbot/bot/memory"
	"github.com/paperbot/paperbot/fault"
	"github.com/paperbot/paperbot/search"
)

// BibTeXEntry is paper p as the bibtex package cites it.
func BibTeXEntry(p search.Paper) bibtex.Entry {
	e := bibtex.Entry{ID: p.ID, Title: p.Title, Authors: p.Authors, Year: p.Year, Venue: p.Venue, URL: p.URL}
	if strings.TrimSpace(e.Title) == "" {
		e.Title = p.Headline
	}
	if len(p.Categories) > 0 {
		e.PrimaryClass = p.Categories[0]
	}
	return e
}

// ListBibTeX writes a reading list as a .bib file, in the list's order.
func ListBibTeX(list []memory.Saved) []byte {
	entries := make([]bibtex.Entry, len(list))
	for i, s := range list {
		entries[i] = BibTeXEntry(s.Paper)
	}
	var buf bytes.Buffer
	_ = bibtex.Write(&buf, entries) // a bytes.Buffer does not fail
	return buf.Bytes()
}

// paperBibTeX shows one paper's entry privately, as a code block to copy.
func (b *Bot) paperBibTeX(id string) (*Reply, error) {
	p, err := b.searcher.Get(id)
	if err != nil {
		if errors.Is(err, fault.NotFound) {
			return nil, refuse("bibtex", "That paper is no longer in the index.")
		}
		return nil, err
	}
	text := "```" + Truncate(Escape(bibtex.Format(BibTeXEntry(p))), sectionBudget-6) + "```"
	return textReply(text, Ephemeral), nil
}

// cmdBibTeX uploads the asker's list (or the channel's) as a .bib file to
// their DM (or the channel).
func (b *Bot) cmdBibTeX(ctx context.Context, req *Request) (*Reply, error) {
	channel, ok := listArgs(req.Args)
	if !ok {
		// "bibtex v65nfk2x" (or a title or link): that paper's entry.
		p, err := b.paperOf(ctx, req.Args)
		if err != nil {
			return nil, err
		}
		return b.paperBibTeX(p.ID)
	}
	owner, err := ownerOf(req, channel)
	if err != nil {
		return nil, err
	}
	list, err := b.memory.List(ctx, owner)
	if err != nil {
		return nil, fmt.Errorf("bibtex %s: %w", owner, err)
	}
	if len(list) == 0 {
		return textReply(emptyListText(channel, b.cfg.SlashCommand), Ephemeral), nil
	}
	dest, name, where := req.Channel, "channel-reading-list.bib", "here"
	if !channel {
		ch, _, _, err := b.api.OpenConversationContext(ctx, &slack.OpenConversationParameters{Users: []string{req.User}, ReturnIM: true})
		if err != nil {
			return nil, fmt.Errorf("bibtex: opening the DM: %w", err)
		}
		dest, name, where = ch.ID, "reading-list.bib", "in our direct messages"
	}
	comment := fmt.Sprintf("%s as BibTeX: %s.", listName(channel), plural(len(list), "paper"))
	if err := b.upload(ctx, dest, name, comment, ListBibTeX(list)); err != nil {
		var se slack.SlackErrorResponse
		if errors.As(err, &se) && (se.Err == "not_in_channel" || se.Err == "channel_not_found") {
			return nil, refuse("bibtex", "I can't post files in this conversation. Invite me with `/invite @"+b.botName()+"` and try again.")
		}
		return nil, fmt.Errorf("bibtex: upload: %w", err)
	}
	rep := textReply(fmt.Sprintf(":page_facing_up: Uploaded `%s` (%s) %s.", name, plural(len(list), "paper"), where), Ephemeral)
	rep.SideEffect = true
	return rep, nil
}

// upload shares content as a file in channel with Slack's two-step upload:
// files.getUploadURLExternal, a POST of the bytes, files.completeUploadExternal.
func (b *Bot) upload(ctx context.Context, channel, name, comment string, content []byte) error {
	u, err := b.api.GetUploadURLExternalContext(ctx, slack.GetUploadURLExternalParameters{FileName: name, FileSize: len(content)})
	if err != nil {
		return err
	}
	if err := b.api.UploadToURL(ctx, slack.UploadToURLParameters{UploadURL: u.UploadURL, Filename: name, Reader: bytes.NewReader(content)}); err != nil {
		return err
	}
	_, err = b.api.CompleteUploadExternalContext(ctx, slack.CompleteUploadExternalParameters{
		Files: []slack.FileSummary{{ID: u.FileID, Title: name}}, Channel: channel, InitialComment: comment})
	return err
}
