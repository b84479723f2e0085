package bot

import (
	"context"

	"github.com/paperbot/paperbot/bot/memory"
)

// WithMemory turns on the team's memory over store: Save and the votes on
// every card, /paper list, /paper bibtex, /paper forget me, and the reading
// list in App Home. Without it those controls say why they are off.
func WithMemory(store memory.Store) Option {
	return func(o *options) { o.memory = store }
}

// memoryOff is what the memory's commands and buttons answer on an install
// without a store.
const memoryOff = "Reading lists and votes need somewhere to keep them: ask whoever runs paperbot to set `PAPERBOT_DATA_DIR`."

// Command names of the memory feature.
const (
	cmdList   = "list"
	cmdBibTeX = "bibtex"
	cmdForget = "forget"
)

func (b *Bot) memoryCommands() []Command {
	return []Command{
		{Name: cmdList, Usage: "list [channel]", Example: "list",
			Help: "Show your reading list (papers you saved), or this channel's with `channel`.", Handler: b.offWithoutMemory(b.cmdList)},
		{Name: cmdBibTeX, Usage: "bibtex [channel|ID]", Example: "bibtex",
			Help: "Upload your reading list (or this channel's) as a BibTeX .bib file; with a paper's ID, show its entry.", Handler: b.offWithoutMemory(b.cmdBibTeX)},
		{Name: cmdForget, Usage: "forget me", Example: "forget me",
			Help: "Delete your votes and your reading list.", Handler: b.offWithoutMemory(b.cmdForget)},
	}
}

func (b *Bot) memoryActions() []Action {
	return []Action{
		{Prefix: actionSave, Handler: b.offWithoutMemory(b.actSave)},
		{Prefix: actionVote, Handler: b.offWithoutMemory(b.actVote)},
		{Prefix: actionCardMenu, Handler: b.offWithoutMemory(b.actCardMenu)},
		{Prefix: actionListRead, Handler: b.offWithoutMemory(b.actListEdit)},
		{Prefix: actionListRemove, Handler: b.offWithoutMemory(b.actListEdit)},
		{Prefix: actionListPage, Handler: b.offWithoutMemory(b.actListPage)},
	}
}

// offWithoutMemory answers memoryOff instead of running h on an install
// without a store.
func (b *Bot) offWithoutMemory(h Handler) Handler {
	return func(ctx context.Context, req *Request) (*Reply, error) {
		if b.memory == nil {
			return textReply(memoryOff, Ephemeral), nil
		}
		return h(ctx, req)
	}
}
