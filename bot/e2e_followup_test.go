package bot

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/boltstore"
	"github.com/paperbot/paperbot/bot/bottest"
	"github.com/paperbot/paperbot/bot/slacktest"
)

const watermarkQuestion = "is there a watermark that can embed a user ID in LLM-generated text?"

// ask mentions the bot in channel as Slack delivers it to an app that
// subscribes to channel messages (message and app_mention for the same
// message) and waits for the one answer in its thread.
func (h *harness) ask(channel, user, text string) (ts string, answer slacktest.Message) {
	h.t.Helper()
	ts, envs := h.srv.Say(channel, user, "<@"+h.srv.BotUserID()+"> "+text, "")
	if len(envs) != 2 {
		h.t.Fatalf("a mention in a channel is %d events, want message and app_mention", len(envs))
	}
	return ts, h.WaitThread(channel, ts, 1)[0]
}

// reply writes in the thread of ts without mentioning the bot and waits
// for the bot's n-th message there.
func (h *harness) reply(channel, user, ts, text string, n int) slacktest.Message {
	h.t.Helper()
	h.srv.Say(channel, user, text, ts)
	return h.WaitThread(channel, ts, n)[n-1]
}

func TestE2EFollowUpsInThread(t *testing.T) {
	h := startBot(t, harnessOpts{})
	ts, first := h.ask("C1", "U1", watermarkQuestion)
	res, err := testIndex(t).Search(t.Context(), searchReq(watermarkQuestion))
	if err != nil || len(res.Results) < 3 {
		t.Fatalf("index: %v, %d results", err, len(res.Results))
	}
	if !strings.Contains(bottest.BlockTexts(t, first), res.Results[0].ID) {
		t.Fatalf("first answer lacks the top paper %s", res.Results[0].ID)
	}

	// Someone else asks about the first card, without a mention.
	got := bottest.BlockTexts(t, h.reply("C1", "U2", ts, "what does the first one embed?", 2))
	if !strings.Contains(got, "embedding of provenance data") || !strings.Contains(got, "#1") {
		t.Errorf("follow-up on the first card:\n%s\nwant StealthInk's sentence on embedding provenance data, naming #1", got)
	}
	got = bottest.BlockTexts(t, h.reply("C1", "U2", ts, "#2: which dataset?", 3))
	if !strings.Contains(got, "does not say") || !strings.Contains(got, res.Results[1].ID) {
		t.Errorf("#2: which dataset?\n%s\nwant one line saying the abstract of %s does not say", got, res.Results[1].ID)
	}
	got = bottest.BlockTexts(t, h.reply("C1", "U1", ts, "that paper: what does it embed?", 4))
	if !strings.Contains(got, res.Results[1].ID) {
		t.Errorf("“that paper” after a question on #2:\n%s\nwant #2 (%s) again", got, res.Results[1].ID)
	}
	got = bottest.BlockTexts(t, h.reply("C1", "U1", ts, "compare 1 and 2", 5))
	if !strings.Contains(got, "Side by side") || !strings.Contains(got, res.Results[0].ID) || !strings.Contains(got, res.Results[1].ID) {
		t.Errorf("compare 1 and 2:\n%s", got)
	}
	got = bottest.BlockTexts(t, h.reply("C1", "U1", ts, "show the abstract of 3", 6))
	if p, _ := testIndex(t).Get(res.Results[2].ID); !strings.Contains(got, Truncate(EscapeInline(p.Abstract), 80)[:60]) {
		t.Errorf("show the abstract of 3:\n%s\nwant the whole abstract of %s", got, p.ID)
	}
	got = bottest.BlockTexts(t, h.reply("C1", "U1", ts, "more like the second", 7))
	if !strings.Contains(got, "Papers like") {
		t.Errorf("more like the second:\n%s", got)
	}

	// A card that does not exist: a private one-line answer.
	h.srv.Say("C1", "U2", "#9: which dataset?", ts)
	e := h.WaitEphemeral("C1", "U2", 1)
	if !strings.Contains(e.Text, "no #9") {
		t.Errorf("#9 of the thread's cards: %q", e.Text)
	}

	// Not for the bot: a channel message, a reply in someone else's
	// thread, thanks between people.
	other, _ := h.srv.Say("C1", "U1", "lunch?", "")
	h.srv.Say("C1", "U2", "sure, what about diffusion models?", other)
	h.srv.Say("C1", "U2", "thanks!", ts)
	h.srv.Say("C1", "U1", "I think the second one is better", ts)
	h.Sentinel("U1")
	if n := len(bottest.BotMessages(h.srv.Thread("C1", other))); n != 0 {
		t.Errorf("the bot answered %d times in a thread it was never in", n)
	}
	if n := len(bottest.BotMessages(h.srv.Thread("C1", ts))); n != 7 {
		t.Errorf("%d bot messages in its thread, want 7 (one answer per question, none for thanks or an opinion)", n)
	}
}

// Slack sends a mention in a channel the app reads twice; the second
// delivery, whichever comes first, is dropped.
func TestE2EMentionTwiceAnsweredOnce(t *testing.T) {
	h := startBot(t, harnessOpts{})
	ts, _ := h.ask("C1", "U1", "protein conformations")
	h.Sentinel("U1")
	if n := len(bottest.BotMessages(h.srv.Thread("C1", ts))); n != 1 {
		t.Errorf("%d answers to one mention, want 1", n)
	}
	bottest.WaitUntil(t, "the twin counted as a duplicate", func() bool {
		return metricValue(t, h.bot, "paperbot_duplicates_total", "") >= 1
	})
}

// A new question in the thread is a new search, answered there; the
// follow-ups then name its cards.
func TestE2EFollowUpNewTopic(t *testing.T) {
	h := startBot(t, harnessOpts{})
	ts, _ := h.ask("C1", "U1", watermarkQuestion)
	got := h.reply("C1", "U1", ts, "any papers on protein conformations?", 2)
	res, _ := testIndex(t).Search(t.Context(), searchReq("any papers on protein conformations?"))
	if !strings.Contains(bottest.BlockTexts(t, got), res.Results[0].ID) {
		t.Fatalf("new topic in the thread not searched:\n%s", bottest.BlockTexts(t, got))
	}
	text := bottest.BlockTexts(t, h.reply("C1", "U1", ts, "#1?", 3))
	if !strings.Contains(text, res.Results[0].ID) {
		t.Errorf("#1 after the new search names %s? got:\n%s", res.Results[0].ID, text)
	}
	// "latest" on a new topic is a search of that topic, not newer papers
	// on the thread's question.
	if text := h.reply("C1", "U1", ts, "what's the latest on kv cache compression?", 4).Text; !strings.Contains(text, "kv cache") {
		t.Errorf("a new topic asking for the latest: %q", text)
	}
}

// Follow-ups work in a direct message too, on its last answer.
func TestE2EFollowUpInDM(t *testing.T) {
	h := startBot(t, harnessOpts{})
	h.srv.DirectMessage("U1", watermarkQuestion)
	dm := h.srv.DMChannel("U1")
	h.srv.WaitForMessage(wait, func(m slacktest.Message) bool { return m.Channel == dm && m.BotID != "" })
	h.srv.DirectMessage("U1", "what does the first one embed?")
	m, err := h.srv.WaitForMessage(wait, func(m slacktest.Message) bool {
		return m.Channel == dm && m.BotID != "" && strings.Contains(m.Text, "provenance")
	})
	if err != nil {
		t.Fatalf("DM follow-up not answered from the first card: %v\n%v", err, h.srv.Messages(dm))
	}
	_ = m
}

// The thread's context is in the store: a restarted bot still knows the
// cards.
func TestE2EFollowUpAfterRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), boltstore.FileName)
	st, err := boltstore.Open(path, boltstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := startBot(t, harnessOpts{bot: []Option{WithThreadStore(st.Threads())}})
	ts, _ := h.ask("C1", "U1", watermarkQuestion)
	if err := h.stop(); err != nil {
		t.Fatal(err)
	}
	st.Close()

	st, err = boltstore.Open(path, boltstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv := h.srv
	b, err := New(Config{BotToken: srv.BotToken(), AppToken: srv.AppToken(), APIURL: srv.APIURL(), Workers: 2,
		ShutdownGrace: 5 * time.Second, HTTPTimeout: 5 * time.Second}, testIndex(t), h.Logger(), WithThreadStore(st.Threads()))
	if err != nil {
		t.Fatal(err)
	}
	h.Run(b)
	if err := srv.WaitConnected(2, wait); err != nil {
		t.Fatal(err)
	}
	bottest.WaitUntil(t, "restarted bot ready", b.Ready)
	got := bottest.BlockTexts(t, h.reply("C1", "U2", ts, "what does the first one embed?", 2))
	if !strings.Contains(got, "provenance") {
		t.Errorf("after a restart the follow-up lost its thread:\n%s", got)
	}
}
