package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/paperbot/paperbot/bot/thread"
	"github.com/paperbot/paperbot/fault"
	"github.com/paperbot/paperbot/search"
)

// threadOf returns the context of the thread req was written in: its
// thread, or for a direct message the conversation's last answer.
func (b *Bot) threadOf(ctx context.Context, req *Request) (thread.Context, bool) {
	keys := []string{req.ThreadTS}
	if req.Source == SourceDM && req.ThreadTS != "" {
		keys = append(keys, "")
	}
	for _, ts := range keys {
		th, err := b.threads.Get(ctx, req.Channel, ts, b.now())
		if err == nil {
			return th, true
		}
		if !errors.Is(err, fault.NotFound) {
			b.log.Warn("thread context unreadable; answering as a new question", "channel", req.Channel, "err", err)
		}
	}
	return thread.Context{}, false
}

// followUp answers req as a follow-up on the cards its thread shows, when
// it names one of them or asks for newer papers; ok is false for anything
// else (a new question, answered as one).
func (b *Bot) followUp(ctx context.Context, req *Request, th thread.Context) (rep *Reply, ok bool, err error) {
	f := parseFollowUp(req.Text)
	if !f.names() && (f.Intent == followAsk || !f.Bare) {
		// A new question, though it may say "latest" or "compare".
		return nil, false, nil
	}
	if f.Intent == followNewer {
		rep, err := b.newerOn(ctx, req, th)
		return rep, true, err
	}
	ids, err := cardsNamed(f, th)
	if err != nil {
		return nil, true, err
	}
	aud := audience{Public: public(req)}
	switch f.Intent {
	case followCompare:
		if len(ids) < 2 {
			ids = th.Papers[:min(len(th.Papers), 3)]
		}
		if len(ids) < 2 {
			return nil, true, refuse("follow-up", "This thread shows one paper: there is nothing to compare it with.")
		}
		rep, err := b.compare(ctx, th, ids, f.Rest)
		return rep, true, err
	case followSimilar:
		rep, err := b.showView(ctx, req, viewState{Kind: viewSimilar, Arg: ids[0]}, aud)
		return rep, true, err
	case followAbstract:
		b.focus(ctx, th, ids[0])
		rep, err := b.showView(ctx, req, viewState{Kind: viewPaper, Arg: ids[0]}, aud)
		if rep != nil {
			rep.shown = nil // the thread's cards stay the ones numbered
		}
		return rep, true, err
	}
	if !hasWordRune(f.Rest) { // "#2?": the paper itself
		b.focus(ctx, th, ids[0])
		rep, err := b.showView(ctx, req, viewState{Kind: viewPaper, Arg: ids[0]}, aud)
		if rep != nil {
			rep.shown = nil
		}
		return rep, true, err
	}
	p, sentence, err := b.searcher.AnswerIn(ctx, ids[0], f.Rest)
	if err != nil {
		return nil, true, err
	}
	if sentence == "" && f.Weak {
		return nil, false, nil // "is it …": a new question after all
	}
	b.focus(ctx, th, ids[0])
	return renderAnswerIn(p, slices.Index(th.Papers, p.ID)+1, sentence), true, nil
}

// cardsNamed resolves the cards a follow-up names to paper IDs, in the
// order named. A number past the thread's cards is a friendly error.
func cardsNamed(f followUp, th thread.Context) ([]string, error) {
	n := len(th.Papers)
	var ids []string
	for _, c := range f.Cards {
		if c == -1 {
			c = n
		}
		if c < 1 || c > n {
			return nil, refuse("follow-up", fmt.Sprintf("This thread shows %s, so there is no #%d. Name one of #1–#%d, or say “the first one”.",
				plural(n, "paper"), c, n))
		}
		if id := th.Papers[c-1]; !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	if f.All {
		for _, id := range th.Papers {
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
	}
	if len(ids) == 0 { // "that paper": the one last asked about, else the top card
		id := th.Papers[0]
		if th.Focus != "" && slices.Contains(th.Papers, th.Focus) {
			id = th.Focus
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// focus remembers the paper a follow-up was about, for "that paper" next.
func (b *Bot) focus(ctx context.Context, th thread.Context, id string) {
	th.Focus, th.Expires = id, b.now().Add(thread.Keep)
	if err := b.threads.Save(ctx, th); err != nil {
		b.log.Warn("thread context not saved", "channel", th.Channel, "err", err)
	}
}

// compare shows, for each paper, the sentence answering the follow-up (else
// the thread's question, else its finding).
func (b *Bot) compare(ctx context.Context, th thread.Context, ids []string, rest string) (*Reply, error) {
	var questions []string
	for _, q := range []string{rest, th.Query} {
		if hasWordRune(q) && !parseFollowUp(q).Bare {
			questions = append(questions, q)
		}
	}
	questions = append(questions, "") // the paper's finding
	var rows []compareRow
	for _, id := range ids[:min(len(ids), maxCompared)] {
		row := compareRow{Card: slices.Index(th.Papers, id) + 1}
		for _, q := range questions {
			p, sentence, err := b.searcher.AnswerIn(ctx, id, q)
			if err != nil && search.KindOf(err) != search.Invalid {
				return nil, err
			}
			if err == nil {
				row.Paper, row.Sentence = p, sentence
			}
			if row.Sentence != "" {
				break
			}
		}
		rows = append(rows, row)
	}
	return renderCompare(rows), nil
}

// newerOn searches the thread's question again for papers newer than the
// newest card it shows.
func (b *Bot) newerOn(ctx context.Context, req *Request, th thread.Context) (*Reply, error) {
	newest := 0
	for _, id := range th.Papers {
		if p, err := b.searcher.Get(id); err == nil {
			newest = max(newest, p.Year)
		}
	}
	q := th.Query
	if newest > 0 {
		q += " year:>" + strconv.Itoa(newest)
	} else {
		q = "latest " + q
	}
	f, err := b.fetch(ctx, viewState{Kind: viewSearch, Arg: strings.TrimSpace(q)}, true)
	if err != nil {
		return nil, err
	}
	if f.noMatch() {
		since := ""
		if newest > 0 {
			since = fmt.Sprintf(" than %d", newest)
		}
		return textReply(fmt.Sprintf("Nothing newer%s on “%s” in the index.", since, Truncate(EscapeInline(th.Query), 200)), VisibilityDefault), nil
	}
	return b.renderView(f, req, audience{Public: public(req)}), nil
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// remember keeps what a message posted in a thread (ts; "" for a direct
// message's top level) shows, so that replies there can name its cards.
// The thread's latest cards are the ones numbered. Failures are logged:
// the answer is out, only its follow-ups are lost.
func (b *Bot) remember(ctx context.Context, channel, ts string, shown *shownCards) {
	if shown == nil || len(shown.Papers) == 0 {
		return
	}
	th := thread.Context{Channel: channel, TS: ts, Query: shown.Query, Papers: shown.Papers, Expires: b.now().Add(thread.Keep)}
	if err := b.threads.Save(ctx, th); err != nil {
		b.log.Warn("thread context not saved", "channel", channel, "err", err)
	}
}
