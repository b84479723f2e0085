package bot

import (
	"fmt"
	"strconv"

	"github.com/slack-go/slack"

	"github.com/paperbot/paperbot/bot/memory"
)

// Action prefixes of the card's memory controls. Issue 43's "Save paper"
// shortcut calls the save handler with the paper ID as the value.
const (
	actionSave     = "save"
	actionVote     = "vote"      // vote:up:N or vote:down:N, value the paper ID
	actionCardMenu = "card-menu" // overflow: "channel ID" saves for the channel, "bibtex ID" shows the entry
)

// Values of the card menu's options, before the paper ID.
const (
	menuSaveChannel = "channel"
	menuBibTeX      = "bibtex"
)

// cardMemoryElements are a card's Save, vote and menu controls. tally is
// the paper's votes in the channel, shown beside the thumbs.
func cardMemoryElements(id string, i int, tally memory.Tally) []slack.BlockElement {
	menu := slack.NewOverflowBlockElement(fmt.Sprintf("%s:%d", actionCardMenu, i),
		slack.NewOptionBlockObject(menuSaveChannel+" "+id, plain("Save for channel"), nil),
		slack.NewOptionBlockObject(menuBibTeX+" "+id, plain("BibTeX"), nil),
	)
	return []slack.BlockElement{
		button(fmt.Sprintf("%s:%d", actionSave, i), "Save", id, ""),
		button(fmt.Sprintf("%s:up:%d", actionVote, i), voteLabel(":+1:", tally.Up), id, ""),
		button(fmt.Sprintf("%s:down:%d", actionVote, i), voteLabel(":-1:", tally.Down), id, ""),
		menu,
	}
}

// voteLabel is ":+1:" or, once there are votes, ":+1: 3".
func voteLabel(emoji string, n int) string {
	if n == 0 {
		return emoji
	}
	return emoji + " " + strconv.Itoa(n)
}
