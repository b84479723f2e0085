package bot

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/slack-go/slack"

	"github.com/paperbot/paperbot/bot/memory"
)

// listPageSize is how many saved papers a page of a list shows (three
// blocks each keeps a page far under Slack's 50); App Home shows fewer.
const (
	listPageSize = 10
	homeListSize = 5
)

// Action prefixes of a list's buttons; their values are listRef.encode().
const (
	actionListRead   = "list-read"
	actionListRemove = "list-rm"
	actionListPage   = "list-page"
)

// listEntry is a saved paper as a list shows it.
type listEntry struct {
	memory.Saved
	// Gone reports that the paper has left the index (withdrawn).
	Gone bool
}

// listView is one page of a reading list.
type listView struct {
	Channel bool        // the channel's list, not the user's own
	Entries []listEntry // the page's entries
	Total   int         // papers on the whole list
	Read    int         // of which read
	Page    int         // 0-based
	Slash   string      // the slash command, e.g. "/paper"
	Home    bool        // rendered in App Home: fewer entries, no pager
}

// listRef is what a list button carries: whose list (the clicker's own or
// the channel's: never another user's), the page, and the paper.
type listRef struct {
	Channel bool
	Page    int
	PaperID string
}

func (r listRef) encode() string {
	kind := "u"
	if r.Channel {
		kind = "c"
	}
	return kind + "|" + strconv.Itoa(r.Page) + "|" + r.PaperID
}

func decodeListRef(v string) (listRef, error) {
	parts := strings.SplitN(v, "|", 3)
	if len(parts) != 3 || (parts[0] != "u" && parts[0] != "c") {
		return listRef{}, fmt.Errorf("malformed list button")
	}
	page, err := strconv.Atoi(parts[1])
	if err != nil || page < 0 || page > 100000 {
		return listRef{}, fmt.Errorf("bad page in list button")
	}
	return listRef{Channel: parts[0] == "c", Page: page, PaperID: parts[2]}, nil
}

// listName is "Your reading list" or "This channel's reading list".
func listName(channel bool) string {
	if channel {
		return "This channel's reading list"
	}
	return "Your reading list"
}

// emptyListText is the one line an empty list gets.
func emptyListText(channel bool, slash string) string {
	if channel {
		return "This channel's reading list is empty. Choose *Save for channel* in a paper card's menu (⋯) to add one."
	}
	return "Your reading list is empty. Click *Save* on any paper card to add it; `" + EscapeInline(slash+" list") + "` shows it."
}

// renderList renders a page of a reading list: a heading with counts, each
// paper (title, ID, authors, when it was saved, read or withdrawn) with Mark
// read and Remove buttons, and Previous/Next. Pure; within Slack's limits.
func renderList(v listView) (string, []slack.Block) {
	pages := (v.Total + listPageSize - 1) / listPageSize
	prefix := "list"
	if v.Home {
		prefix = "home_list"
	}
	id := func(name string, i int) string { return fmt.Sprintf("%s_%s_%d", prefix, name, i) }
	head := fmt.Sprintf("*%s* · %s, %d read", listName(v.Channel), plural(v.Total, "paper"), v.Read)
	if !v.Home && pages > 1 {
		head += fmt.Sprintf(" · page %d of %d", v.Page+1, pages)
	}
	blocks := []slack.Block{slack.NewSectionBlock(mrkdwn(head), nil, nil, slack.SectionBlockOptionBlockID(prefix+"_head"))}
	for i, e := range v.Entries {
		blocks = append(blocks, slack.NewSectionBlock(mrkdwn(Truncate(listEntryText(e, v.Channel), sectionBudget)), nil, nil,
			slack.SectionBlockOptionBlockID(id("paper", i))))
		ref := listRef{Channel: v.Channel, Page: v.Page, PaperID: e.Paper.ID}.encode()
		read := "Mark read"
		if e.Read {
			read = "Mark unread"
		}
		blocks = append(blocks, slack.NewActionBlock(id("acts", i),
			button(fmt.Sprintf("%s:%d", actionListRead, i), read, ref, ""),
			button(fmt.Sprintf("%s:%d", actionListRemove, i), "Remove", ref, "danger")))
	}
	var nav []slack.BlockElement
	if !v.Home && v.Page > 0 {
		nav = append(nav, button(actionListPage+":prev", "Previous", listRef{Channel: v.Channel, Page: v.Page - 1}.encode(), ""))
	}
	if !v.Home && v.Page+1 < pages {
		nav = append(nav, button(actionListPage+":next", "Next", listRef{Channel: v.Channel, Page: v.Page + 1}.encode(), ""))
	}
	if len(nav) > 0 {
		blocks = append(blocks, slack.NewActionBlock(prefix+"_nav", nav...))
	}
	export := v.Slash + " bibtex"
	more := ""
	if v.Channel {
		export += " channel"
	}
	if v.Home && v.Total > len(v.Entries) {
		more = fmt.Sprintf("%d more: `%s` · ", v.Total-len(v.Entries), EscapeInline(v.Slash+" list"))
	}
	blocks = append(blocks, slack.NewContextBlock(prefix+"_foot", mrkdwn(more+"`"+EscapeInline(export)+"` uploads it as a BibTeX file")))
	return fmt.Sprintf("%s: %s", listName(v.Channel), plural(v.Total, "paper")), blocks
}

// listEntryText is a saved paper's lines: linked title, meta, and status.
func listEntryText(e listEntry, channel bool) string {
	mark := ":bookmark:"
	if e.Read {
		mark = ":white_check_mark:"
	}
	status := "saved " + slackDate(e.SavedAt)
	if channel && e.SavedBy != "" {
		status += " by <@" + EscapeInline(e.SavedBy) + ">"
	}
	if e.Read {
		status += " · read"
	}
	if e.Gone {
		status += " · :warning: no longer in the index (withdrawn)"
	}
	return mark + " " + titleLine(e.Paper) + "\n" + metaLine(e.Paper) + "\n" + status
}
