package bot

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/slack-go/slack"

	"github.com/paperbot/paperbot/search"
)

// builtinCommands is the start of the command table; its order is the
// order of help.
func (b *Bot) builtinCommands() []Command {
	return []Command{
		{Name: cmdSearch, Usage: "QUERY", Example: "protein conformations",
			Help:    "Search abstracts by topic or question; quotes, -exclusions and title:/author:/venue:/year:/has:code filters work.",
			Handler: b.cmdSearch},
		{Name: cmdShow, Usage: "show ID", Example: "show aay87f2q",
			Help: "Show one paper with its full abstract.", Handler: b.cmdShow},
		{Name: cmdSimilar, Usage: "similar ID", Example: "similar aay87f2q",
			Help: "Find papers like the one with this ID.", Handler: b.cmdSimilar},
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
	if utf8.RuneCountInString(q) > maxQueryChars {
		return nil, refuse("search", "That query is too long. Try a few key words or a shorter question.")
	}
	rep, err := b.view(ctx, req, viewState{Kind: viewSearch, Arg: q}, public(req))
	if err != nil {
		return nil, err
	}
	if isNothing(rep) {
		rep = b.withUnknownWordsHelp(rep, req, q)
	}
	return rep, nil
}

// isNothing reports whether a rendered view says nothing relevant was found.
func isNothing(rep *Reply) bool {
	if len(rep.Blocks) == 0 {
		return false
	}
	s, ok := rep.Blocks[0].(*slack.SectionBlock)
	return ok && s.BlockID == blockNothing
}

func (b *Bot) cmdShow(ctx context.Context, req *Request) (*Reply, error) {
	id := paperID(req.Args)
	if id == "" {
		return b.usageReply(req, cmdShow), nil
	}
	return b.view(ctx, req, viewState{Kind: viewPaper, Arg: id}, public(req))
}

func (b *Bot) cmdSimilar(ctx context.Context, req *Request) (*Reply, error) {
	id := paperID(req.Args)
	if id == "" {
		return b.usageReply(req, cmdSimilar), nil
	}
	return b.view(ctx, req, viewState{Kind: viewSimilar, Arg: id}, public(req))
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

// view runs what a viewState describes and renders it; public views are
// for everyone in the conversation.
func (b *Bot) view(ctx context.Context, req *Request, st viewState, isPublic bool) (*Reply, error) {
	return b.renderView(ctx, req, st, isPublic, "")
}

// MaxSimilarResults bounds how far "More like this" pages: past a few pages
// the resemblance is too weak to be worth reading.
const MaxSimilarResults = 30

// pageOf keeps the results from offset on, as the page starting there.
func pageOf(res *search.Results, offset int) *search.Results {
	page := *res
	page.Offset = offset
	page.Results = res.Results[min(offset, len(res.Results)):]
	page.Total = min(res.Total, MaxSimilarResults)
	return &page
}

// renderView is view with an optional "shared by" user.
func (b *Bot) renderView(ctx context.Context, req *Request, st viewState, isPublic bool, sharedBy string) (*Reply, error) {
	switch st.Kind {
	case viewPaper:
		p, err := b.searcher.Get(st.Arg)
		if err != nil {
			return nil, err
		}
		return renderPaper(paperView{Paper: p, Buttons: true, Public: isPublic, SharedBy: sharedBy}), nil
	case viewSimilar:
		p, err := b.searcher.Get(st.Arg)
		if err != nil {
			return nil, err
		}
		// Similar has no offset: fetch up to the end of the page, keep the page.
		res, err := b.searcher.Similar(ctx, st.Arg, min(st.Offset+b.cfg.PageSize, MaxSimilarResults))
		if err != nil {
			return nil, err
		}
		res = pageOf(res, st.Offset)
		name := p.Title
		if strings.TrimSpace(name) == "" {
			name = p.Headline
		}
		return renderResults(resultsView{Results: res, State: st, Heading: "Papers like “" + name + "”",
			Public: isPublic, SharedBy: sharedBy, Help: req.helpCommand(), PageSize: b.cfg.PageSize}), nil
	}
	res, err := b.searcher.Search(ctx, search.Request{Text: st.Arg, Limit: b.cfg.PageSize, Offset: st.Offset})
	if err != nil {
		return nil, err
	}
	return renderResults(resultsView{Results: res, State: st, Heading: "Papers for “" + st.Arg + "”",
		Public: isPublic, SharedBy: sharedBy, QuoteAnswer: isPublic && sharedBy == "" && st.Offset == 0,
		Help: req.helpCommand(), PageSize: b.cfg.PageSize}), nil
}
