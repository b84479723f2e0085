package bot

import (
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/paperbot/paperbot/bot/bottest"
	"github.com/paperbot/paperbot/bot/slacktest"
	"github.com/paperbot/paperbot/search"
)

// searchEphemeral runs a slash search for user and returns its reply.
func searchEphemeral(t *testing.T, h *harness, user, channel, query string) slacktest.Message {
	t.Helper()
	h.Slash(user, channel, query)
	return h.WaitEphemeral(channel, user, 1)
}

func click(t *testing.T, h *harness, m slacktest.Message, user, actionID string) string {
	t.Helper()
	env, err := h.srv.Click(m, user, actionID)
	if err != nil {
		t.Fatalf("click %s: %v", actionID, err)
	}
	h.WaitAck(env)
	return env
}

func TestE2EPagingReplacesTheEphemeral(t *testing.T) {
	h := startBot(t, harnessOpts{})
	m := searchEphemeral(t, h, "U1", "C1", "learning")
	if !bottest.HasButton(t, m, "page:next") {
		t.Fatalf("first page has no Next button:\n%s", bottest.BlockTexts(t, m))
	}
	click(t, h, m, "U1", "page:next")
	page2 := h.WaitReplaced("C1", "U1", 1)
	if text := bottest.BlockTexts(t, page2); !strings.Contains(text, "Results 6–10") {
		t.Fatalf("page 2:\n%s", text)
	}
	if !bottest.HasButton(t, page2, "page:prev") {
		t.Fatal("page 2 has no Previous button")
	}
	click(t, h, page2, "U1", "page:prev")
	if page1 := h.WaitReplaced("C1", "U1", 2); !strings.Contains(bottest.BlockTexts(t, page1), "Results 1–5") {
		t.Fatalf("Previous did not bring back page 1:\n%s", bottest.BlockTexts(t, page1))
	}
}

// "give me 3 papers on …" shows three, and its pages go three at a time.
func TestE2EAskedCountSetsThePage(t *testing.T) {
	h := startBot(t, harnessOpts{})
	m := searchEphemeral(t, h, "U1", "C1", "give me 3 papers on learning")
	if text := bottest.BlockTexts(t, m); !strings.Contains(text, "Results 1–3") {
		t.Fatalf("first page is not results 1–3:\n%s", text)
	}
	click(t, h, m, "U1", "page:next")
	if text := bottest.BlockTexts(t, h.WaitReplaced("C1", "U1", 1)); !strings.Contains(text, "Results 4–6") {
		t.Fatalf("page 2 is not results 4–6:\n%s", text)
	}
}

func TestE2EShowAbstractAndMoreLikeThis(t *testing.T) {
	h := startBot(t, harnessOpts{})
	m := searchEphemeral(t, h, "U1", "C1", "protein conformations")
	top := firstResultID(t, m)

	click(t, h, m, "U1", "abstract:0")
	abs := h.WaitEphemeral("C1", "U1", 2)
	p, err := testIndex(t).Get(top)
	if err != nil {
		t.Fatal(err)
	}
	if text := bottest.BlockTexts(t, abs); !strings.Contains(normalizeSpace(text), normalizeSpace(Escape(p.Abstract))[:200]) {
		t.Errorf("Show abstract did not show %s's abstract:\n%s", top, text)
	}
	if got := h.srv.Ephemerals("C1", "U1")[0]; got.Edits != 0 {
		t.Error("Show abstract replaced the results instead of adding a message")
	}

	click(t, h, m, "U1", "similar:0")
	sim := h.WaitEphemeral("C1", "U1", 3)
	if text := bottest.BlockTexts(t, sim); !strings.Contains(text, "Papers like “") && !strings.Contains(text, "Nothing relevant similar to") {
		t.Errorf("More like this:\n%s", text)
	}
}

func TestE2EShareToChannel(t *testing.T) {
	h := startBot(t, harnessOpts{})
	m := searchEphemeral(t, h, "U1", "C1", "protein conformations")
	top := firstResultID(t, m)
	click(t, h, m, "U1", "share:0")
	var shared slacktest.Message
	if err := h.srv.WaitFor(wait, func() bool {
		ms := bottest.BotMessages(h.srv.Messages("C1"))
		if len(ms) > 0 {
			shared = ms[0]
		}
		return len(ms) == 1 && h.EphemeralCount("C1", "U1") == 0
	}); err != nil {
		t.Fatalf("share: channel messages %d, ephemerals left %d: %v", len(bottest.BotMessages(h.srv.Messages("C1"))), h.EphemeralCount("C1", "U1"), err)
	}
	text := bottest.BlockTexts(t, shared)
	if !strings.Contains(text, "Shared by <@U1>") || !strings.Contains(text, top) {
		t.Errorf("shared message:\n%s", text)
	}
	if shared.Ephemeral || shared.Params.Get("unfurl_links") != "false" {
		t.Errorf("shared message is ephemeral or unfurls: %+v", shared.Params)
	}
	if bottest.HasButton(t, shared, "share:0") {
		t.Error("shared message still offers Share")
	}
}

func TestE2EShareWhereTheBotIsNotInvited(t *testing.T) {
	h := startBot(t, harnessOpts{})
	h.srv.SetChannel("CPRIV", slacktest.Channel{Private: true})
	m := searchEphemeral(t, h, "U1", "CPRIV", "protein")
	click(t, h, m, "U1", "share:0")
	e := h.WaitEphemeral("CPRIV", "U1", 2)
	if text := bottest.BlockTexts(t, e); !strings.Contains(text, "/invite @") {
		t.Errorf("not_in_channel reply:\n%s", text)
	}
	if n := len(bottest.BotMessages(h.srv.Messages("CPRIV"))); n != 0 {
		t.Errorf("%d messages posted in a channel the bot is not in", n)
	}
}

// TestE2EDoubleClickActsOnce clicks each button twice in a row: one effect.
func TestE2EDoubleClickActsOnce(t *testing.T) {
	h := startBot(t, harnessOpts{})
	m := searchEphemeral(t, h, "U1", "C1", "protein conformations")
	// Keep the first click in flight while the second arrives.
	h.srv.Slow("chat.postMessage", 200*time.Millisecond)
	first, err := h.srv.Click(m, "U1", "share:0")
	if err != nil {
		t.Fatal(err)
	}
	second, err := h.srv.Click(m, "U1", "share:0")
	if err != nil {
		t.Fatal(err)
	}
	h.WaitAck(first)
	h.WaitAck(second)
	if err := h.srv.WaitFor(wait, func() bool { return h.EphemeralCount("C1", "U1") == 0 }); err != nil {
		t.Fatal(err)
	}
	h.srv.Slow("chat.postMessage", 0)
	h.Sentinel("U9")
	if n := len(bottest.BotMessages(h.srv.Messages("C1"))); n != 1 {
		t.Errorf("double-clicked Share posted %d messages, want 1", n)
	}

	m = searchEphemeral(t, h, "U2", "C2", "protein conformations")
	a, _ := h.srv.Click(m, "U2", "abstract:0")
	b, _ := h.srv.Click(m, "U2", "abstract:0")
	h.WaitAck(a)
	h.WaitAck(b)
	h.WaitEphemeral("C2", "U2", 2)
	h.Sentinel("U9")
	if n := h.EphemeralCount("C2", "U2"); n != 2 {
		t.Errorf("double-clicked Show abstract gave %d ephemerals, want 2 (results + one abstract)", n)
	}
}

// TestE2EButtonsOnPublicReplies: a mention's reply offers More results, which
// answers the clicker privately and leaves the public message alone.
func TestE2EButtonsOnPublicReplies(t *testing.T) {
	h := startBot(t, harnessOpts{})
	env, _ := h.srv.Mention("C1", "U1", "learning")
	h.WaitAck(env)
	reply := h.WaitThread("C1", h.srv.Messages("C1")[0].TS, 1)[0]
	if !bottest.HasButton(t, reply, "page:next") {
		t.Fatalf("public reply has no More results button:\n%s", bottest.BlockTexts(t, reply))
	}
	click(t, h, reply, "U2", "page:next")
	e := h.WaitEphemeral("C1", "U2", 1)
	if !strings.Contains(bottest.BlockTexts(t, e), "Results 6–10") {
		t.Errorf("More results:\n%s", bottest.BlockTexts(t, e))
	}
	if got := bottest.BotMessages(h.srv.Messages("C1"))[0]; got.Edits != 0 {
		t.Error("More results edited the public reply")
	}
}

// firstResultID is the ID on the first card of a results message.
func firstResultID(t *testing.T, m slacktest.Message) string {
	t.Helper()
	for _, b := range bottest.Blocks(t, m) {
		ids := actionIDs([]slack.Block{b})
		if v, ok := ids["abstract:0"]; ok {
			return v
		}
	}
	t.Fatalf("no first result in:\n%s", bottest.BlockTexts(t, m))
	return ""
}

// TestE2ESimilarPages: "More like this" pages like a search, in the order
// the index ranks them, and stops at MaxSimilarResults.
func TestE2ESimilarPages(t *testing.T) {
	h := startBot(t, harnessOpts{})
	const lacache = "jeq7bgwz"
	want, err := testIndex(t).Similar(t.Context(), lacache, 10)
	if err != nil || want.NoMatch || len(want.Results) < 10 {
		t.Fatalf("the seeds need 10 papers like LaCache for this test: %v %+v", err, want)
	}
	h.Slash("U1", "C1", "similar "+lacache)
	m := h.WaitEphemeral("C1", "U1", 1)
	if !bottest.HasButton(t, m, "page:next") {
		t.Fatalf("first page of similar papers has no Next button:\n%s", bottest.BlockTexts(t, m))
	}
	click(t, h, m, "U1", "page:next")
	text := bottest.BlockTexts(t, h.WaitReplaced("C1", "U1", 1))
	if !strings.Contains(text, "Results 6–10") || !strings.Contains(text, "`"+want.Results[5].ID+"`") {
		t.Fatalf("page 2 should start with the 6th similar paper %s:\n%s", want.Results[5].ID, text)
	}
	if strings.Contains(text, "`"+want.Results[0].ID+"`") {
		t.Fatalf("page 2 repeats page 1's top paper:\n%s", text)
	}
}

func TestPageOfStopsAtMaxSimilar(t *testing.T) {
	res := &search.Results{Total: 500, Results: make([]search.Result, MaxSimilarResults)}
	p := pageOf(res, MaxSimilarResults-5)
	if len(p.Results) != 5 || p.Offset != MaxSimilarResults-5 || p.Total != MaxSimilarResults {
		t.Fatalf("pageOf = %d results, offset %d, total %d", len(p.Results), p.Offset, p.Total)
	}
	if acts := pagerButtons(resultsView{State: viewState{Kind: viewSimilar, Arg: "x", Offset: p.Offset}, PageSize: 5}, p.Offset, len(p.Results), p.Total); hasAction(acts, actionPage+":next") {
		t.Fatal("Next offered past MaxSimilarResults")
	}
}

func hasAction(acts []slack.BlockElement, id string) bool {
	for _, a := range acts {
		if b, ok := a.(*slack.ButtonBlockElement); ok && b.ActionID == id {
			return true
		}
	}
	return false
}
