package bot

import (
	"github.com/slack-go/slack"

	"github.com/paperbot/paperbot/search"
)

// notIndexedLine marks the card of a paper shown from a source, not found in
// the index: no buttons, since there is nothing to page through.
const notIndexedLine = "Not in paperbot's index: shown from its source."

// unfurlBlocks is the card a pasted paper link unfolds into: the search
// results' card (title, authors, venue and year, the finding sentence, and
// for an indexed paper its buttons). i keeps its block and action IDs apart
// from the other links' in the message. It is pure.
func unfurlBlocks(r search.Result, indexed bool, i int) []slack.Block {
	opts := CardOptions{Index: i, Buttons: indexed}
	if !indexed {
		opts.Why = notIndexedLine
	}
	return CardBlocks(r, opts)
}
