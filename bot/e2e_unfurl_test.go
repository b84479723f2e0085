package bot

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/paperbot/paperbot/bot/bottest"
	"github.com/paperbot/paperbot/bot/memory"
	"github.com/paperbot/paperbot/bot/slacktest"
	"github.com/paperbot/paperbot/ingest"
	"github.com/paperbot/paperbot/ingest/sources"
)

// unfurlDomains are the manifest's, plus the seed corpus's own (icml.cc).
var unfurlDomains = append(append([]string(nil), UnfurlDomains...), "icml.cc")

// waitUnfurls waits until the message at ts has n unfurls and returns them.
func (h *harness) waitUnfurls(channel, ts string, n int) map[string]json.RawMessage {
	h.t.Helper()
	var got map[string]json.RawMessage
	if err := h.srv.WaitFor(wait, func() bool {
		for _, m := range h.srv.Messages(channel) {
			if m.TS == ts {
				got = m.Unfurls
			}
		}
		return len(got) >= n
	}); err != nil {
		h.t.Fatalf("want %d unfurls on %s, have %d: %v\nlogs:\n%s", n, ts, len(got), err, h.logs)
	}
	return got
}

// unfurlText is the text and action IDs of one unfurl attachment.
func unfurlText(t *testing.T, raw json.RawMessage) (text string, actions []string) {
	t.Helper()
	var a slack.Attachment
	if err := json.Unmarshal(raw, &a); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(a.Blocks)
	var v any
	_ = json.Unmarshal(b, &v)
	for _, blk := range a.Blocks.BlockSet {
		if ab, ok := blk.(*slack.ActionBlock); ok {
			for _, e := range ab.Elements.ElementSet {
				if btn, ok := e.(*slack.ButtonBlockElement); ok {
					actions = append(actions, btn.ActionID)
				}
			}
		}
	}
	return strings.Join(bottest.Texts(v), "\n"), actions
}

func TestE2EUnfurlIndexedPaper(t *testing.T) {
	h := startBot(t, harnessOpts{srv: []slacktest.Option{slacktest.WithUnfurlDomains(unfurlDomains...)}})
	p, err := testIndex(t).Get("5qc6brxw")
	if err != nil {
		t.Fatal(err)
	}
	ts, envs := h.srv.PasteLinks("C1", "U1", "have you seen <"+p.URL+">? and <https://arxiv.org/abs/2501.00001>", "")
	if len(envs) != 2 {
		t.Fatalf("%d envelopes, want the message and link_shared", len(envs))
	}
	unfurls := h.waitUnfurls("C1", ts, 1)
	text, actions := unfurlText(t, unfurls[p.URL])
	_, finding, _ := testIndex(t).AnswerIn(t.Context(), p.ID, "")
	for _, want := range []string{p.Title, p.ID, "Ya Jiang", "ICML 2025", Truncate(EscapeInline(finding), 60)[:50]} {
		if !strings.Contains(text, want) {
			t.Errorf("unfurl lacks %q:\n%s", want, text)
		}
	}
	if !slices.Contains(actions, actionSimilar+":0") {
		t.Errorf("unfurl buttons %v, want More like this", actions)
	}
	h.Sentinel("U1")
	if len(unfurls) != 1 {
		t.Errorf("%d unfurls; the arXiv paper nobody knows must be left to Slack", len(unfurls))
	}
	if n := len(bottest.BotMessages(h.srv.Messages("C1"))); n != 0 {
		t.Errorf("the bot posted %d messages for a pasted link; it only unfurls", n)
	}

	// The More like this button of an unfurl answers the clicker.
	if _, err := h.srv.BlockAction(slacktest.ActionOpts{UserID: "U2", Channel: "C1", MessageTS: ts, ActionID: actionSimilar + ":0", UnfurlURL: p.URL}); err != nil {
		t.Fatal(err)
	}
	if e := h.WaitEphemeral("C1", "U2", 1); !strings.Contains(e.Text, "Papers like") {
		t.Errorf("More like this on an unfurl: %q", e.Text)
	}
}

// A link to a paper the index lacks is looked up on arXiv (a recorded
// answer on loopback) and shown, marked as not indexed, without buttons;
// with arXiv unreachable the link is left to Slack and the miss is logged.
func TestE2EUnfurlLookedUpPaper(t *testing.T) {
	found, err := os.ReadFile("../../shared/feeds/arxiv-api-2026-search-cat-cs.CL-max3.atom.xml")
	if err != nil {
		t.Skipf("recorded response not present: %v", err)
	}
	arxiv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("id_list") == "2609.28471" {
			w.Write(found)
			return
		}
		http.Error(w, "unavailable", http.StatusInternalServerError)
	}))
	defer arxiv.Close()
	client, err := sources.NewClient(sources.Config{Contact: "ops@example.org", APIURL: arxiv.URL + "/api/query",
		Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }})
	if err != nil {
		t.Fatal(err)
	}
	finder := ingest.NewLinkFinder(client, ingest.NewMemoryLinkCache(10), nil)
	h := startBot(t, harnessOpts{srv: []slacktest.Option{slacktest.WithUnfurlDomains(unfurlDomains...)}, bot: []Option{WithPaperFinder(finder)}})

	link := "https://arxiv.org/abs/2609.28471v1"
	ts, _ := h.srv.PasteLinks("C1", "U1", "new one: <"+link+">", "")
	text, actions := unfurlText(t, h.waitUnfurls("C1", ts, 1)[link])
	r, _ := client.LookUp(t.Context(), "arxiv:2609.28471")
	for _, want := range []string{Truncate(EscapeInline(r.Title), 60)[:40], notIndexedLine} {
		if !strings.Contains(text, want) {
			t.Errorf("unfurl lacks %q:\n%s", want, text)
		}
	}
	if len(actions) != 0 {
		t.Errorf("a paper outside the index offers buttons %v", actions)
	}

	down := "https://arxiv.org/abs/2609.11111"
	ts, _ = h.srv.PasteLinks("C1", "U1", "and <"+down+">", "")
	h.Sentinel("U1")
	bottest.WaitUntil(t, "the miss logged", func() bool { return strings.Contains(h.logs.String(), "paper link not unfurled") })
	for _, m := range h.srv.Messages("C1") {
		if m.TS == ts && len(m.Unfurls) != 0 {
			t.Errorf("unfurled %v with arXiv failing", m.Unfurls)
		}
	}
}

// An indexed paper's unfurl carries the card's Save, votes and menu: Save
// puts it on the clicker's list, a vote counts in the channel and is
// confirmed privately, and the pasted message (someone else's) is never
// edited.
func TestE2EUnfurlCardSaveAndVote(t *testing.T) {
	store := memoryStore(t)
	h := startMemoryBot(t, store, harnessOpts{srv: []slacktest.Option{slacktest.WithUnfurlDomains(unfurlDomains...)}})
	p, err := testIndex(t).Get("5qc6brxw")
	if err != nil {
		t.Fatal(err)
	}
	pasted := "have you seen <" + p.URL + ">?"
	ts, _ := h.srv.PasteLinks("C1", "U1", pasted, "")
	_, actions := unfurlText(t, h.waitUnfurls("C1", ts, 1)[p.URL])
	for _, want := range []string{actionSave + ":0", actionVote + ":up:0", actionVote + ":down:0"} {
		if !slices.Contains(actions, want) {
			t.Errorf("unfurl buttons %v lack %s", actions, want)
		}
	}
	act := func(actionID, option string, n int) string {
		t.Helper()
		env, err := h.srv.BlockAction(slacktest.ActionOpts{UserID: "U2", Channel: "C1", MessageTS: ts, ActionID: actionID, Option: option, UnfurlURL: p.URL})
		if err != nil {
			t.Fatal(err)
		}
		h.WaitAck(env)
		return bottest.BlockTexts(t, h.WaitEphemeral("C1", "U2", n))
	}

	if got := act(actionSave+":0", "", 1); !strings.Contains(got, "Saved “") {
		t.Errorf("Save on an unfurl answered %q", got)
	}
	if list, err := store.List(t.Context(), memory.User("U2")); err != nil || len(list) != 1 || list[0].Paper.ID != p.ID {
		t.Errorf("U2's list after Save on an unfurl: %v, %v", list, err)
	}
	if got := act(actionVote+":up:0", "", 2); !strings.Contains(got, "You like this paper here") || !strings.Contains(got, ":+1: 1") {
		t.Errorf("a vote on an unfurl answered %q", got)
	}
	if v, err := store.VoteOf(t.Context(), "C1", "U2", p.ID); err != nil || v != memory.Up {
		t.Errorf("vote held after 👍 on an unfurl: %d, %v", v, err)
	}
	if got := act(actionCardMenu+":0", menuBibTeX+" "+p.ID, 3); !strings.Contains(got, "@inproceedings{") {
		t.Errorf("BibTeX from an unfurl's menu answered %q", got)
	}
	for _, m := range h.srv.Messages("C1") {
		if m.TS == ts && (m.Edits != 0 || m.Text != pasted) {
			t.Errorf("U1's pasted message was edited (%d edits): %q", m.Edits, m.Text)
		}
	}
}
