package bot

import (
	"bufio"
	"context"
	_ "embed"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"github.com/paperbot/paperbot/search"
)

// maxPrompts is how many suggested prompts Slack shows.
const maxPrompts = 4

// minTopicPapers is the fewest relevant papers a topic needs to be offered.
const minTopicPapers = 3

// searchingStatus is the assistant thread's status while paperbot searches.
const searchingStatus = "is searching the papers…"

//go:embed assistant_topics.tsv
var assistantTopicsTSV string

// assistantTopics are the rows of assistant_topics.tsv.
var assistantTopics = func() []slack.AssistantThreadsPrompt {
	var out []slack.AssistantThreadsPrompt
	sc := bufio.NewScanner(strings.NewReader(assistantTopicsTSV))
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		title, prompt, ok := strings.Cut(line, "\t")
		if !ok || title == "" || prompt == "" {
			panic(fmt.Sprintf("assistant_topics.tsv: %q: want title and prompt", line))
		}
		out = append(out, slack.AssistantThreadsPrompt{Title: title, Message: prompt})
	}
	return out
}()

// prompts caches the suggested prompts for one corpus size: the index
// changes rarely, and choosing them runs a search per topic.
type prompts struct {
	mu     sync.Mutex
	papers int
	list   []slack.AssistantThreadsPrompt
}

// fromAssistantThread handles assistant_thread_started when the assistant
// surface is on.
func (b *Bot) fromAssistantThread(e *slackevents.AssistantThreadStartedEvent) *Request {
	t := e.AssistantThread
	if !b.cfg.Assistant || t.ChannelID == "" || t.ThreadTimeStamp == "" {
		return nil
	}
	return &Request{Source: SourceAssistant, User: t.UserID, Channel: t.ChannelID, ThreadTS: t.ThreadTimeStamp,
		msgTS: "assistant:" + t.ThreadTimeStamp}
}

// assistantStarted offers up to four prompts on the topics the corpus
// covers best in a new assistant thread.
func (b *Bot) assistantStarted(ctx context.Context, req *Request) (*Reply, error) {
	list, err := b.suggestedPrompts(ctx)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, nil
	}
	err = b.api.SetAssistantThreadsSuggestedPromptsContext(ctx, slack.AssistantThreadsSetSuggestedPromptsParameters{
		ChannelID: req.Channel, ThreadTS: req.ThreadTS, Title: "Ask me about the papers, for example:", Prompts: list})
	if err != nil {
		return nil, fmt.Errorf("suggested prompts: %w", err)
	}
	return &Reply{SideEffect: true}, nil
}

// suggestedPrompts are the topics of assistant_topics.tsv the corpus has
// the most relevant papers on (at least minTopicPapers), best first.
func (b *Bot) suggestedPrompts(ctx context.Context) ([]slack.AssistantThreadsPrompt, error) {
	p := &b.prompts
	p.mu.Lock()
	defer p.mu.Unlock()
	papers := b.searcher.Stats().Papers
	if p.list != nil && p.papers == papers {
		return p.list, nil
	}
	type scored struct {
		prompt slack.AssistantThreadsPrompt
		n      int
	}
	var all []scored
	for _, t := range assistantTopics {
		res, err := b.searcher.Search(ctx, search.Request{Text: t.Title, Limit: 1})
		if err != nil {
			if search.KindOf(err) == search.Invalid {
				continue
			}
			return nil, err
		}
		if !res.NoMatch && res.Total >= minTopicPapers {
			all = append(all, scored{t, res.Total})
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].n > all[j].n })
	list := []slack.AssistantThreadsPrompt{}
	for _, s := range all[:min(len(all), maxPrompts)] {
		list = append(list, s.prompt)
	}
	p.papers, p.list = papers, list
	return list, nil
}

// showSearching sets the assistant thread's status while a direct message
// in a thread is answered; Slack clears it when the answer is posted.
// Outside an assistant thread Slack refuses, which only costs a log line.
func (b *Bot) showSearching(ctx context.Context, req *Request) {
	if !b.cfg.Assistant || req.Source != SourceDM || req.ThreadTS == "" {
		return
	}
	if err := b.api.SetAssistantThreadsStatusContext(ctx, slack.AssistantThreadsSetStatusParameters{
		ChannelID: req.Channel, ThreadTS: req.ThreadTS, Status: searchingStatus}); err != nil {
		b.log.Debug("assistant status not set", "channel", req.Channel, "err", err)
	}
}
