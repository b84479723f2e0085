package bot

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"github.com/paperbot/paperbot/search"
)

// maxUnfurls bounds the links of one message that unfold: a pasted
// reading list should not fill the channel.
const maxUnfurls = 5

// fromLinkShared turns link_shared into an unfurl request. Links typed in
// the composer (no message yet: message_ts is not a timestamp) and the
// bot's own messages are left alone.
func (b *Bot) fromLinkShared(e *slackevents.LinkSharedEvent, self AuthInfo) *Request {
	if e.Channel == "" || !isMessageTS(e.MessageTimeStamp) || (self.UserID != "" && e.User == self.UserID) {
		return nil
	}
	var links []string
	for _, l := range e.Links {
		if l.URL != "" && !slices.Contains(links, l.URL) {
			links = append(links, l.URL)
		}
	}
	if len(links) == 0 {
		return nil
	}
	return &Request{Source: SourceUnfurl, User: e.User, Channel: e.Channel, ThreadTS: e.ThreadTimeStamp,
		MessageTS: e.MessageTimeStamp, Links: links, msgTS: "unfurl:" + e.MessageTimeStamp}
}

// isMessageTS reports whether s looks like a message ts ("1700000000.000100").
func isMessageTS(s string) bool {
	sec, frac, ok := strings.Cut(s, ".")
	return ok && sec != "" && frac != "" && strings.Trim(sec+frac, "0123456789") == ""
}

// unfurl unfolds each paper link of req's message into a card: a paper of
// the index, else one a PaperFinder knows (shown, not indexed). Links to
// no known paper are left to Slack's own preview; so is everything when a
// source is unreachable (logged).
func (b *Bot) unfurl(ctx context.Context, req *Request) (*Reply, error) {
	unfurls := map[string]slack.Attachment{}
	for i, link := range req.Links[:min(len(req.Links), maxUnfurls)] {
		p, indexed, err := b.paperAtLink(ctx, link)
		if err != nil {
			if search.KindOf(err) != search.NotFound {
				b.log.Warn("paper link not unfurled", "link", link, "err", err)
			}
			continue
		}
		unfurls[link] = slack.Attachment{Blocks: slack.Blocks{BlockSet: unfurlBlocks(p, indexed, i)}}
	}
	if len(unfurls) == 0 {
		return nil, nil
	}
	if _, _, _, err := b.api.UnfurlMessageContext(ctx, req.Channel, req.MessageTS, unfurls); err != nil {
		var se slack.SlackErrorResponse
		if errors.As(err, &se) {
			// The message went away or unfurls are off there: nothing to fix.
			b.log.Warn("chat.unfurl refused", "channel", req.Channel, "error", se.Err)
			return nil, nil
		}
		return nil, err
	}
	return &Reply{SideEffect: true}, nil
}

// paperAtLink finds the paper a link points to: in the index (any link
// form it knows, and any link a paper of the corpus carries), else through
// the finder. indexed says which. An error of kind NotFound means nobody
// knows it.
func (b *Bot) paperAtLink(ctx context.Context, link string) (p search.Result, indexed bool, err error) {
	paper, err := b.searcher.Lookup(ctx, link)
	if err == nil {
		_, finding, aerr := b.searcher.AnswerIn(ctx, paper.ID, "")
		if aerr != nil {
			b.log.Debug("no finding sentence for unfurl", "paper", paper.ID, "err", aerr)
		}
		return search.Result{Paper: paper, Answer: finding}, true, nil
	}
	if search.KindOf(err) != search.NotFound || b.finder == nil {
		return search.Result{}, false, err
	}
	paper, err = b.finder.FindPaper(ctx, link)
	if err != nil {
		return search.Result{}, false, err
	}
	paper.ID = "" // not indexed: no ID to show or click on
	return search.Result{Paper: paper, Answer: search.FindingSentence(paper.Abstract)}, false, nil
}

// UnfurlDomains are the domains whose paper links paperbot knows by their
// form (arXiv abs, pdf and html pages; OpenReview forum and pdf; doi.org;
// the Hugging Face and alphaXiv paper pages). The manifest declares them;
// Slack allows five, so a corpus whose own links live elsewhere (the
// seeds' icml.cc) takes the place of one (docs/slack.md).
var UnfurlDomains = []string{"arxiv.org", "openreview.net", "doi.org", "huggingface.co", "alphaxiv.org"}
