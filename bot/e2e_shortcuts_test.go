package bot

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/paperbot/paperbot/bot/slacktest"
)

// shortcut runs callbackID on the message at ts as user and waits for the
// private answer.
func (h *harness) shortcut(user, channel, ts, callbackID string) string {
	h.t.Helper()
	before := h.EphemeralCount(channel, user)
	env, err := h.srv.MessageShortcut(slacktest.ShortcutOpts{UserID: user, Channel: channel, MessageTS: ts, CallbackID: callbackID})
	if err != nil {
		h.t.Fatal(err)
	}
	h.WaitAck(env)
	return h.WaitEphemeral(channel, user, before+1).Text
}

func TestE2EShortcutFindRelated(t *testing.T) {
	h := startBot(t, harnessOpts{})
	ts, _ := h.srv.Say("C1", "U1", "we need a watermark that hides a user ID in what the LLM writes, any ideas?", "")
	got := h.shortcut("U2", "C1", ts, ShortcutFindRelated)
	if !strings.Contains(got, pastedHeading) || !strings.Contains(got, "5qc6brxw") {
		t.Errorf("Find related papers on a message: %q, want the papers like it with StealthInk", got)
	}
	for _, m := range h.srv.Messages("C1") {
		if m.BotID != "" {
			t.Errorf("Find related papers posted in the channel: %q; it answers privately", m.Text)
		}
	}

	file := h.srv.FileMessage("C1", "U1", "slides.pdf")
	if got := h.shortcut("U2", "C1", file, ShortcutFindRelated); !strings.Contains(got, "no text") {
		t.Errorf("Find related papers on a file-only message: %q", got)
	}
}

func TestE2EShortcutSavePaperWithoutReadingLists(t *testing.T) {
	h := startBot(t, harnessOpts{})
	p, _ := testIndex(t).Get("5qc6brxw")
	ts, _ := h.srv.Say("C1", "U1", "read <"+p.URL+">", "")
	if got := h.shortcut("U1", "C1", ts, ShortcutSavePaper); !strings.Contains(got, "Reading lists are not enabled") {
		t.Errorf("Save paper without reading lists: %q", got)
	}
}

// Save paper calls the handler registered for the save action prefix, as a
// click on a Save button whose value is the paper ID, for each paper the
// message links to.
func TestE2EShortcutSavePaper(t *testing.T) {
	var mu sync.Mutex
	var saved []string
	save := Action{Prefix: actionSave, Handler: func(_ context.Context, req *Request) (*Reply, error) {
		mu.Lock()
		defer mu.Unlock()
		saved = append(saved, req.User+":"+req.Action.Value)
		return textReply("Saved `"+EscapeInline(req.Action.Value)+"` to your reading list.", VisibilityDefault), nil
	}}
	h := startBot(t, harnessOpts{bot: []Option{WithActions(save)}})
	a, _ := testIndex(t).Get("5qc6brxw")
	ts, _ := h.srv.Say("C1", "U1", "read <"+a.URL+"|StealthInk> and <https://example.org/blog> and again "+a.URL, "")
	got := h.shortcut("U2", "C1", ts, ShortcutSavePaper)
	mu.Lock()
	defer mu.Unlock()
	if len(saved) != 1 || saved[0] != "U2:5qc6brxw" {
		t.Errorf("save handler got %v, want one click by U2 with value 5qc6brxw", saved)
	}
	if !strings.Contains(got, "Saved `5qc6brxw`") {
		t.Errorf("Save paper answered %q", got)
	}
	mu.Unlock()
	none, _ := h.srv.Say("C1", "U1", "no links here, only words", "")
	got = h.shortcut("U2", "C1", none, ShortcutSavePaper)
	mu.Lock()
	if !strings.Contains(got, "no link to a paper") || len(saved) != 1 {
		t.Errorf("Save paper on a message without paper links: %q (saved %v)", got, saved)
	}
}
