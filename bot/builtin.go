package bot

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/paperbot/paperbot/search"
)

// builtinCommands is the start of the command table; its order is the
// order of help.
func (b *Bot) builtinCommands() []Command {
	return []Command{
		{Name: cmdSearch, Usage: "QUERY", Example: "protein conformations",
			Help:    "Search abstracts by topic or question; quotes, -exclusions and title:/author:/venue:/year:/has:code/cat:/since:/date: filters work.",
			Handler: b.cmdSearch},
		{Name: cmdShow, Usage: "show ID", Example: "show aay87f2q",
			Help: "Show one paper (by ID, link or title) with its full abstract.", Handler: b.cmdShow},
		{Name: cmdSimilar, Usage: "similar ID", Example: "similar aay87f2q",
			Help: "Find papers like the one with this ID, link or title (or ask: papers similar to TITLE).", Handler: b.cmdSimilar},
		{Name: cmdHelp, Usage: "help", Example: "help",
			Help: "List what I can do.", Handler: b.cmdHelp},
	}
}

// builtinActions are the buttons the renderers produce.
func (b *Bot) builtinActions() []Action {
	return []Action{
		{Prefix: actionPage, Handler: b.actPage},
		{Prefix: actionAbstract, Handler: b.actAbstract},
		{Prefix: actionSimilar, Handler: b.actSimilar},
		{Prefix: actionShare, Handler: b.actShare},
	}
}

// public reports whether replies to req are seen by the whole conversation.
func public(req *Request) bool { return req.Source == SourceMention || req.Source == SourceDM }

func (b *Bot) cmdSearch(ctx context.Context, req *Request) (*Reply, error) {
	q := strings.TrimSpace(req.Args)
	if q == "" {
		return b.cmdHelp(ctx, req)
	}
	if search.PastedText(q) {
		// A pasted abstract: the papers like it.
		return b.showView(ctx, req, viewState{Kind: viewText, Arg: q}, audience{Public: public(req)})
	}
	if utf8.RuneCountInString(q) > maxQueryChars {
		return nil, refuse("search", "That query is too long. Try a few key words or a shorter question.")
	}
	if target, ok := search.SimilarTarget(q); ok {
		// "papers similar to <title>": the papers like it, when the words
		// name one paper; otherwise a search like any other.
		if p, err := b.paperOf(ctx, target); err == nil {
			return b.showView(ctx, req, viewState{Kind: viewSimilar, Arg: p.ID}, audience{Public: public(req)})
		}
	}
	f, err := b.fetch(ctx, viewState{Kind: viewSearch, Arg: q}, public(req))
	if err != nil {
		return nil, err
	}
	rep := b.renderView(f, req, audience{Public: public(req)})
	if f.noMatch() {
		rep = b.withUnknownWordsHelp(rep, req, q)
	}
	return rep, nil
}

func (b *Bot) cmdShow(ctx context.Context, req *Request) (*Reply, error) {
	if paperID(req.Args) == "" {
		return b.usageReply(req, cmdShow), nil
	}
	p, err := b.paperOf(ctx, req.Args)
	if err != nil {
		return nil, err
	}
	return b.showView(ctx, req, viewState{Kind: viewPaper, Arg: p.ID}, audience{Public: public(req)})
}

func (b *Bot) cmdSimilar(ctx context.Context, req *Request) (*Reply, error) {
	if paperID(req.Args) == "" {
		return b.usageReply(req, cmdSimilar), nil
	}
	p, err := b.paperOf(ctx, req.Args)
	if err != nil {
		return nil, err
	}
	return b.showView(ctx, req, viewState{Kind: viewSimilar, Arg: p.ID}, audience{Public: public(req)})
}

// paperOf resolves the arguments of show and similar to a paper: an ID (the
// first word), else the whole text as a link or a title ("similar
// arxiv.org/abs/2309.17453", "similar Vision Transformers Need Registers").
func (b *Bot) paperOf(ctx context.Context, args string) (search.Paper, error) {
	p, err := b.searcher.Get(paperID(args))
	if search.KindOf(err) != search.NotFound {
		return p, err
	}
	return b.searcher.Lookup(ctx, strings.Trim(strings.TrimSpace(args), "\"“”'`"))
}

func (b *Bot) cmdHelp(_ context.Context, req *Request) (*Reply, error) {
	return renderHelp(b.table.commands, req.Invocation, b.mentionName()), nil
}

// usageReply reminds the user how to call one command.
func (b *Bot) usageReply(req *Request, name string) *Reply {
	c := b.table.byName[name]
	return textReply("Usage: `"+EscapeInline(req.Invocation+c.Usage)+"` — for example `"+EscapeInline(req.Invocation+c.Example)+"`. "+
		"`"+EscapeInline(req.helpCommand())+"` lists everything I can do.", Ephemeral)
}

// paperID extracts an ID from command arguments, forgiving the backticks
// and # people copy along with it.
func paperID(args string) string {
	f := strings.Fields(args)
	if len(f) == 0 {
		return ""
	}
	return strings.Trim(f[0], "`#'\"()[]<>.,;:")
}
