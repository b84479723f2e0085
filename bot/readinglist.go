package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/slack-go/slack"

	"github.com/paperbot/paperbot/bot/memory"
	"github.com/paperbot/paperbot/fault"
)

// errNoChannel refuses a channel list where there is no channel to own it.
var errNoChannel = refuse("list", "Channel lists live in a channel: run this in the channel whose list you mean.")

// ownerOf is whose list req means: the channel's when channel is true, else
// the asker's own. A user's list is only ever the asker's.
func ownerOf(req *Request, channel bool) (memory.Owner, error) {
	if channel {
		if req.Channel == "" || strings.HasPrefix(req.Channel, "D") {
			return memory.Owner{}, errNoChannel
		}
		return memory.Channel(req.Channel), nil
	}
	if req.User == "" {
		return memory.Owner{}, errors.New("list: request without a user")
	}
	return memory.User(req.User), nil
}

// savePaper saves paper id to owner's list for user and says so in one line.
func (b *Bot) savePaper(ctx context.Context, owner memory.Owner, id, user string) (*Reply, error) {
	p, err := b.searcher.Get(id)
	if err != nil {
		if errors.Is(err, fault.NotFound) {
			return nil, refuse("save", "That paper is no longer in the index, so I can't save it.")
		}
		return nil, err
	}
	added, err := b.memory.Save(ctx, owner, memory.Saved{Paper: memory.Snapshot(p), SavedAt: b.now().UTC(), SavedBy: user})
	if err != nil {
		return nil, fmt.Errorf("save %s: %w", id, err)
	}
	title := "“" + Truncate(EscapeInline(p.Headline), 120) + "”"
	where := "your reading list (`" + EscapeInline(b.cfg.SlashCommand+" list") + "`)"
	if owner.Channel {
		where = "this channel's reading list (`" + EscapeInline(b.cfg.SlashCommand+" list channel") + "`)"
	}
	text := ":bookmark: Saved " + title + " to " + where + "."
	if !added {
		text = title + " is already on " + where + "."
	}
	return &Reply{Text: text, Blocks: textReply(text, Ephemeral).Blocks, Visibility: Ephemeral, SideEffect: added}, nil
}

// actSave saves the card's paper to the clicker's list. It is also the
// "Save paper" message shortcut's handler, called with the paper ID as the
// value and no message: it never edits the message it came from.
func (b *Bot) actSave(ctx context.Context, req *Request) (*Reply, error) {
	id := paperID(req.Action.Value)
	if id == "" {
		return nil, errStaleButton
	}
	return b.savePaper(ctx, memory.User(req.User), id, req.User)
}

// actCardMenu runs the card menu's choices: save for the channel, or show
// the paper's BibTeX entry.
func (b *Bot) actCardMenu(ctx context.Context, req *Request) (*Reply, error) {
	choice, id, _ := strings.Cut(req.Action.Value, " ")
	id = paperID(id)
	if id == "" {
		return nil, errStaleButton
	}
	switch choice {
	case menuSaveChannel:
		owner, err := ownerOf(req, true)
		if err != nil {
			return nil, err
		}
		return b.savePaper(ctx, owner, id, req.User)
	case menuBibTeX:
		return b.paperBibTeX(id)
	}
	return nil, errStaleButton
}

// listArgs reads "list [channel]".
func listArgs(args string) (channel, ok bool) {
	switch strings.ToLower(strings.TrimSpace(args)) {
	case "":
		return false, true
	case "channel", "chan", "here", "this channel":
		return true, true
	}
	return false, false
}

func (b *Bot) cmdList(ctx context.Context, req *Request) (*Reply, error) {
	channel, ok := listArgs(req.Args)
	if !ok {
		// "list papers on diffusion" is a search, not the reading list.
		req.Args = req.Text
		return b.cmdSearch(ctx, req)
	}
	return b.listPage(ctx, req, channel, 0)
}

// listPage renders page of the list req means, privately.
func (b *Bot) listPage(ctx context.Context, req *Request, channel bool, page int) (*Reply, error) {
	owner, err := ownerOf(req, channel)
	if err != nil {
		return nil, err
	}
	v, err := b.loadList(ctx, owner, page, listPageSize)
	if err != nil {
		return nil, err
	}
	if v.Total == 0 {
		return textReply(emptyListText(channel, b.cfg.SlashCommand), Ephemeral), nil
	}
	text, blocks := renderList(v)
	return &Reply{Text: text, Blocks: blocks, Visibility: Ephemeral}, nil
}

// loadList reads owner's list and the entries of one page, marking those
// that have left the index. A page past the end shows the last one.
func (b *Bot) loadList(ctx context.Context, owner memory.Owner, page, size int) (listView, error) {
	all, err := b.memory.List(ctx, owner)
	if err != nil {
		return listView{}, fmt.Errorf("list %s: %w", owner, err)
	}
	v := listView{Channel: owner.Channel, Total: len(all), Slash: b.cfg.SlashCommand}
	for _, s := range all {
		if s.Read {
			v.Read++
		}
	}
	if last := max(0, (len(all)-1)/size); page > last {
		page = last
	}
	v.Page = page
	for _, s := range all[min(len(all), page*size):min(len(all), (page+1)*size)] {
		_, err := b.searcher.Get(s.Paper.ID)
		v.Entries = append(v.Entries, listEntry{Saved: s, Gone: errors.Is(err, fault.NotFound)})
	}
	return v, nil
}

// actListPage shows another page of a list, replacing the private message.
func (b *Bot) actListPage(ctx context.Context, req *Request) (*Reply, error) {
	ref, err := decodeListRef(req.Action.Value)
	if err != nil {
		return nil, errStaleButton
	}
	rep, err := b.listPage(ctx, req, ref.Channel, ref.Page)
	if err != nil {
		return nil, err
	}
	rep.ReplaceOriginal = req.Action.Ephemeral
	return rep, nil
}

// actListEdit marks a saved paper read (or unread) or removes it, then
// shows the list again where it was clicked: the private message, or App
// Home.
func (b *Bot) actListEdit(ctx context.Context, req *Request) (*Reply, error) {
	ref, err := decodeListRef(req.Action.Value)
	if err != nil || ref.PaperID == "" {
		return nil, errStaleButton
	}
	owner, err := ownerOf(req, ref.Channel)
	if err != nil {
		return nil, err
	}
	if strings.HasPrefix(req.Action.ID, actionListRemove) {
		err = b.memory.Remove(ctx, owner, ref.PaperID)
	} else {
		var all []memory.Saved
		if all, err = b.memory.List(ctx, owner); err == nil {
			read := true
			for _, s := range all {
				if s.Paper.ID == ref.PaperID {
					read = !s.Read
				}
			}
			err = b.memory.SetRead(ctx, owner, ref.PaperID, read)
		}
	}
	if errors.Is(err, fault.NotFound) {
		err = nil // removed meanwhile (another click, another device): show the list as it is
	}
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", owner, err)
	}
	if req.Action.MessageTS == "" { // App Home
		return &Reply{SideEffect: true}, b.publishHome(ctx, req.User)
	}
	rep, err := b.listPage(ctx, req, ref.Channel, ref.Page)
	if err != nil {
		return nil, err
	}
	rep.ReplaceOriginal, rep.SideEffect = req.Action.Ephemeral, true
	return rep, nil
}

// listHome is the App Home section of the user's own list: its newest
// papers, with the same buttons. Nobody else's list is ever shown there.
func (b *Bot) listHome(ctx context.Context, user string) ([]slack.Block, error) {
	v, err := b.loadList(ctx, memory.User(user), 0, homeListSize)
	if err != nil {
		return nil, err
	}
	v.Home = true
	if v.Total == 0 {
		return []slack.Block{slack.NewDividerBlock(), slack.NewSectionBlock(mrkdwn("*Your reading list*\n"+emptyListText(false, b.cfg.SlashCommand)),
			nil, nil, slack.SectionBlockOptionBlockID("home_list_head"))}, nil
	}
	_, blocks := renderList(v)
	return append([]slack.Block{slack.NewDividerBlock()}, blocks...), nil
}

// cmdForget deletes the asker's votes and reading list: "forget me".
func (b *Bot) cmdForget(ctx context.Context, req *Request) (*Reply, error) {
	switch strings.ToLower(strings.Trim(strings.TrimSpace(req.Args), ".!")) {
	case "me", "about me", "my data":
	case "":
		return b.usageReply(req, cmdForget), nil
	default: // "forget gates in LSTMs" is a search
		req.Args = req.Text
		return b.cmdSearch(ctx, req)
	}
	votes, saved, err := b.memory.Forget(ctx, req.User)
	if err != nil {
		return nil, fmt.Errorf("forget: %w", err)
	}
	text := fmt.Sprintf("Done: I deleted your %s and the %s on your reading list, and your name from the channel lists you saved to.",
		plural(votes, "vote"), plural(saved, "paper"))
	rep := textReply(text, Ephemeral)
	rep.SideEffect = true
	return rep, nil
}
