package bot

import (
	"slices"
	"strings"
	"testing"

	"github.com/paperbot/paperbot/bot/bottest"
	"github.com/paperbot/paperbot/search"
)

func TestE2EAssistantThread(t *testing.T) {
	h := startBot(t, harnessOpts{config: func(c *Config) { c.Assistant = true }})
	dm, ts, _ := h.srv.AssistantThreadStarted("U1")
	var prompts []string
	if err := h.srv.WaitFor(wait, func() bool {
		prompts = nil
		for _, p := range h.srv.SuggestedPrompts(dm, ts) {
			prompts = append(prompts, p.Title)
		}
		return len(prompts) > 0
	}); err != nil {
		t.Fatalf("no suggested prompts: %v\n%s", err, h.logs)
	}
	if len(prompts) > maxPrompts {
		t.Errorf("%d prompts, Slack shows %d", len(prompts), maxPrompts)
	}
	for _, title := range prompts {
		res, err := testIndex(t).Search(t.Context(), search.Request{Text: title, Limit: 1})
		if err != nil || res.NoMatch || res.Total < minTopicPapers {
			t.Errorf("prompt %q is not a topic the corpus covers (%v)", title, err)
		}
	}

	// A question in the thread: the status says paperbot is searching,
	// then the answer comes in the thread, as a DM's would.
	h.srv.DirectMessageInThread("U1", watermarkQuestion, ts)
	r := h.WaitThread(dm, ts, 1)[0]
	if !strings.Contains(bottest.BlockTexts(t, r), "5qc6brxw") {
		t.Errorf("assistant answer lacks StealthInk:\n%s", bottest.BlockTexts(t, r))
	}
	if got := h.srv.AssistantStatuses(dm, ts); !slices.Equal(got, []string{searchingStatus}) {
		t.Errorf("statuses %q, want %q before the answer", got, searchingStatus)
	}
	// A follow-up works there too.
	h.srv.DirectMessageInThread("U1", "what does the first one embed?", ts)
	if got := bottest.BlockTexts(t, h.WaitThread(dm, ts, 2)[1]); !strings.Contains(got, "provenance") {
		t.Errorf("follow-up in the assistant thread:\n%s", got)
	}
}

// Off by default: an assistant event changes nothing and no status is set.
func TestE2EAssistantOff(t *testing.T) {
	h := startBot(t, harnessOpts{})
	dm, ts, _ := h.srv.AssistantThreadStarted("U1")
	h.srv.DirectMessageInThread("U1", watermarkQuestion, ts)
	h.WaitThread(dm, ts, 1)
	if n := len(h.srv.Calls("assistant.threads.setSuggestedPrompts")) + len(h.srv.Calls("assistant.threads.setStatus")); n != 0 {
		t.Errorf("%d assistant calls with the assistant off", n)
	}
}
