package bot

import (
	"context"
	"strings"
)

// pastedHeading heads the papers like a pasted text.
const pastedHeading = "Papers like the text you pasted"

// audience says who sees a rendered view.
type audience struct {
	// Public: everyone in the conversation (a mention's thread, a DM, a
	// shared message).
	Public bool
	// SharedBy is the user who shared the view to the channel, if anyone.
	SharedBy string
}

// renderView renders what fetch read, for req's conversation. It is pure.
func (b *Bot) renderView(f fetched, req *Request, aud audience) *Reply {
	st := f.State
	switch st.Kind {
	case viewPaper:
		rep := renderPaper(paperView{Paper: f.Paper, Buttons: true, Public: aud.Public, SharedBy: aud.SharedBy})
		rep.shown = &shownCards{Query: f.Paper.Title, Papers: []string{f.Paper.ID}}
		return rep
	case viewSimilar:
		name := f.Paper.Title
		if strings.TrimSpace(name) == "" {
			name = f.Paper.Headline
		}
		return renderResults(resultsView{Results: f.Results, State: st, Heading: "Papers like “" + name + "”", Query: name,
			Public: aud.Public, SharedBy: aud.SharedBy, Help: req.helpCommand(), PageSize: f.PageSize})
	case viewText:
		return renderResults(resultsView{Results: f.Results, State: st, Heading: pastedHeading, Query: st.Arg,
			Public: aud.Public, Help: req.helpCommand(), PageSize: f.PageSize})
	}
	return renderResults(resultsView{Results: f.Results, State: st, Heading: "Papers for “" + st.Arg + "”", Query: st.Arg,
		Public: aud.Public, SharedBy: aud.SharedBy, QuoteAnswer: aud.Public && aud.SharedBy == "" && st.Offset == 0,
		Help: req.helpCommand(), PageSize: f.PageSize})
}

// showView fetches what st describes, then renders it for aud.
func (b *Bot) showView(ctx context.Context, req *Request, st viewState, aud audience) (*Reply, error) {
	f, err := b.fetch(ctx, st, aud.Public)
	if err != nil {
		return nil, err
	}
	return b.renderView(f, req, aud), nil
}
