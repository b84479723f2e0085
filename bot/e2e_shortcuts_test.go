package bot

import (
	"slices"
	"strings"
	"testing"

	"github.com/paperbot/paperbot/bot/memory"
	"github.com/paperbot/paperbot/bot/slacktest"
	"github.com/paperbot/paperbot/search"
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
	if got := h.shortcut("U1", "C1", ts, ShortcutSavePaper); !strings.Contains(got, "PAPERBOT_DATA_DIR") {
		t.Errorf("Save paper without reading lists: %q, want the line saying they need PAPERBOT_DATA_DIR", got)
	}
}

// Save paper puts each indexed paper the message links to (an arXiv pdf
// link of any version, a corpus paper's own icml.cc page) on the user's
// reading list in the real store, through the Save button's handler; a
// second time keeps one entry, and a message without paper links saves
// nothing.
func TestE2EShortcutSavePaper(t *testing.T) {
	papers := append([]search.Paper(nil), seedPapers(t)[:20]...)
	onArxiv, onICML := &papers[0], papers[1]
	onArxiv.URL = "https://arxiv.org/abs/2501.01234"
	ix, err := search.Open(t.Context(), &search.Corpus{Papers: papers}, search.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	store := memoryStore(t)
	h := startMemoryBot(t, store, harnessOpts{search: ix})

	ts, _ := h.srv.Say("C1", "U1", "read <https://arxiv.org/pdf/2501.01234v2|the pdf> and <"+onICML.URL+"> and <https://example.org/blog>, again https://arxiv.org/abs/2501.01234", "")
	got := h.shortcut("U2", "C1", ts, ShortcutSavePaper)
	if strings.Count(got, "Saved “") != 2 {
		t.Errorf("Save paper answered %q, want two papers saved", got)
	}
	saved := func(user string) []string {
		t.Helper()
		list, err := store.List(t.Context(), memory.User(user))
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, s := range list {
			ids = append(ids, s.Paper.ID)
		}
		slices.Sort(ids)
		return ids
	}
	want := []string{onArxiv.ID, onICML.ID}
	slices.Sort(want)
	if ids := saved("U2"); !slices.Equal(ids, want) {
		t.Errorf("U2's reading list holds %v, want %v", ids, want)
	}
	if ids := saved("U1"); len(ids) != 0 {
		t.Errorf("the message's author U1 has %v on their list; the list is the clicker's", ids)
	}

	if got := h.shortcut("U2", "C1", ts, ShortcutSavePaper); strings.Count(got, "already on your reading list") != 2 {
		t.Errorf("Save paper again answered %q", got)
	}
	none, _ := h.srv.Say("C1", "U1", "no links here, only words", "")
	if got := h.shortcut("U2", "C1", none, ShortcutSavePaper); !strings.Contains(got, "no link to a paper") {
		t.Errorf("Save paper on a message without paper links: %q", got)
	}
	if ids := saved("U2"); !slices.Equal(ids, want) {
		t.Errorf("U2's reading list holds %v after saving twice, want %v", ids, want)
	}
}
