package bot

import (
	"github.com/slack-go/slack"

	"github.com/paperbot/paperbot/bot/thread"
	"github.com/paperbot/paperbot/search"
)

// Visibility says who sees a reply.
type Visibility int

const (
	// VisibilityDefault follows the request: ephemeral for slash commands and
	// buttons, visible in the thread for mentions and direct messages.
	VisibilityDefault Visibility = iota
	// Ephemeral shows the reply only to the requesting user.
	Ephemeral
	// InChannel shows the reply to everyone in the channel.
	InChannel
)

// Reply is what a command or action handler answers. Text is the top-level
// fallback Slack shows in notifications and to screen readers; it must be
// real text, already escaped like every other mrkdwn.
type Reply struct {
	Text       string
	Blocks     []slack.Block
	Visibility Visibility
	// ReplaceOriginal replaces the message a button was clicked in (through
	// its response_url); DeleteOriginal deletes it. Both only apply to
	// button clicks.
	ReplaceOriginal bool
	DeleteOriginal  bool
	// SideEffect reports that the handler already changed something people
	// can see (posted a message, created, removed or resumed a
	// subscription): the delivery then counts as handled even when this
	// reply cannot be sent, so a redelivery never does it twice. A handler
	// that fails after such a change returns a Reply with SideEffect set
	// beside its error; a Reply with nothing else set sends nothing.
	SideEffect bool
	// shown is what the reply's cards show, for the thread it is posted
	// in (nil: no cards).
	shown *shownCards
}

// shownCards are the cards of a reply: the question they answer and the
// paper IDs in their order.
type shownCards struct {
	Query  string
	Papers []string
}

// cardsOf lists results' paper IDs in order, for shownCards.
func cardsOf(query string, results []search.Result) *shownCards {
	s := &shownCards{Query: query}
	for _, r := range results {
		if r.ID != "" && len(s.Papers) < thread.MaxPapers {
			s.Papers = append(s.Papers, r.ID)
		}
	}
	if len(s.Papers) == 0 {
		return nil
	}
	return s
}

// empty reports whether the reply has nothing to send.
func (r *Reply) empty() bool {
	return r.Text == "" && len(r.Blocks) == 0 && !r.ReplaceOriginal && !r.DeleteOriginal
}

// textReply is a reply with one mrkdwn section carrying text.
func textReply(escapedText string, v Visibility) *Reply {
	t := Truncate(escapedText, sectionBudget)
	return &Reply{
		Text:       t,
		Blocks:     []slack.Block{slack.NewSectionBlock(mrkdwn(t), nil, nil)},
		Visibility: v,
	}
}
