package bot

import (
	"strings"
	"testing"

	"github.com/paperbot/paperbot/bot/bottest"
)

func TestE2EMentionAnsweredInThread(t *testing.T) {
	h := startBot(t, harnessOpts{})
	env, _ := h.srv.Mention("C1", "U1", "any papers on protein conformations?")
	h.WaitAck(env)
	mention := h.srv.Messages("C1")[0]
	replies := h.WaitThread("C1", mention.TS, 1)
	r := replies[0]
	if r.Ephemeral || r.Source != "chat.postMessage" {
		t.Fatalf("reply = %+v, want a channel message", r)
	}
	if r.Params.Get("unfurl_links") != "false" || r.Params.Get("unfurl_media") != "false" {
		t.Errorf("unfurl_links=%q unfurl_media=%q, want both false", r.Params.Get("unfurl_links"), r.Params.Get("unfurl_media"))
	}
	blocks := bottest.Blocks(t, r)
	checkSafe(t, &Reply{Text: r.Text, Blocks: blocks})
	res, err := testIndex(t).Search(t.Context(), searchReq("any papers on protein conformations?"))
	if err != nil {
		t.Fatal(err)
	}
	text := bottest.BlockTexts(t, r)
	if !strings.Contains(text, res.Results[0].ID) {
		t.Errorf("thread reply lacks the top hit %s:\n%s", res.Results[0].ID, text)
	}
	if a := res.Results[0].Answer; a != "" {
		first := bottest.BlockTexts(t, bottest.FirstBlockOnly(t, r))
		if !strings.Contains(first, quotedStart(a)) {
			t.Errorf("first block does not quote the answer %q:\n%s", a, first)
		}
	}
	if bottest.HasButton(t, r, "share:0") {
		t.Error("a public reply offers Share")
	}
}

// quotedStart is how a card's quote of answer begins: escaped, and short
// enough that the card's own truncation does not reach it.
func quotedStart(answer string) string {
	a := Truncate(EscapeInline(answer), 60)
	return "> " + a[:min(len(a), 40)]
}

// A mention the index refuses says so in one line, quotes no answer above
// the closest papers, and each card still shows that paper's sentence
// nearest to an answer, as the CLI does.
func TestE2ERefusedMentionShowsClosestFindings(t *testing.T) {
	h := startBot(t, harnessOpts{})
	q := "any papers on privacy attacks on federated learning?"
	env, _ := h.srv.Mention("C1", "U1", q)
	h.WaitAck(env)
	mention := h.srv.Messages("C1")[0]
	r := h.WaitThread("C1", mention.TS, 1)[0]
	res, err := testIndex(t).Search(t.Context(), searchReq(q))
	if err != nil {
		t.Fatal(err)
	}
	if !res.NoMatch || len(res.Results) == 0 || res.Results[0].Answer == "" {
		t.Fatalf("index: no_match %v, %d results; want refused with closest papers that carry answers", res.NoMatch, len(res.Results))
	}
	first := bottest.BlockTexts(t, bottest.FirstBlockOnly(t, r))
	if !strings.Contains(first, "Nothing really relevant") {
		t.Errorf("first block = %q, want the one-line refusal", first)
	}
	text := bottest.BlockTexts(t, r)
	if want := quotedStart(res.Results[0].Answer); !strings.Contains(text, want) {
		t.Errorf("reply does not show the closest paper's sentence %q:\n%s", want, text)
	}
	if strings.Count(text, "> ") != min(len(res.Results), closestShown) {
		t.Errorf("want one quoted sentence per closest paper (%d), none above them:\n%s", min(len(res.Results), closestShown), text)
	}
}

// Emoji reach the bot as :shortcodes: and italics as _underscores_; they
// are not searched as words, so a cheerful question is answered like a
// plain one.
func TestE2EMentionWithEmojiAndItalics(t *testing.T) {
	h := startBot(t, harnessOpts{})
	env, _ := h.srv.Mention("C1", "U1", ":fire: _kv cache_ :pray::skin-tone-2:")
	h.WaitAck(env)
	mention := h.srv.Messages("C1")[0]
	r := h.WaitThread("C1", mention.TS, 1)[0]
	res, err := testIndex(t).Search(t.Context(), searchReq("kv cache"))
	if err != nil {
		t.Fatal(err)
	}
	text := bottest.BlockTexts(t, r)
	if strings.Contains(text, "Nothing") || strings.Contains(text, "skin") || !strings.Contains(text, res.Results[0].ID) {
		t.Errorf("reply is not the answer to \"kv cache\" (top hit %s):\n%s", res.Results[0].ID, text)
	}
}

// A named link to a paper the index does not hold, as Slack sends it, is
// answered from its words, and the reply says no paper listed is the
// linked one.
func TestE2EMentionWithALinkNotHeld(t *testing.T) {
	h := startBot(t, harnessOpts{})
	env, _ := h.srv.Mention("C1", "U1", "anything on <https://arxiv.org/abs/2305.14314|QLoRA>?")
	h.WaitAck(env)
	mention := h.srv.Messages("C1")[0]
	r := h.WaitThread("C1", mention.TS, 1)[0]
	res, err := testIndex(t).Search(t.Context(), searchReq("anything on QLoRA?"))
	if err != nil {
		t.Fatal(err)
	}
	text := bottest.BlockTexts(t, r)
	if strings.Contains(text, "Nothing") || !strings.Contains(text, res.Results[0].ID) || !strings.Contains(text, "arxiv.org/abs/2305.14314") {
		t.Errorf("reply is not the answer to its words (top hit %s) naming the link:\n%s", res.Results[0].ID, text)
	}
}

func TestE2EMentionInThreadStaysInThread(t *testing.T) {
	h := startBot(t, harnessOpts{})
	root := h.srv.Messages("C1")
	_ = root
	env, _ := h.srv.MentionInThread("C1", "U1", "diffusion models", "1700000000.000100")
	h.WaitAck(env)
	h.WaitThread("C1", "1700000000.000100", 1)
}

func TestE2EDirectMessage(t *testing.T) {
	h := startBot(t, harnessOpts{})
	env, _ := h.srv.DirectMessage("U2", "protein conformations")
	h.WaitAck(env)
	dm := h.srv.DMChannel("U2")
	var got string
	if err := h.srv.WaitFor(wait, func() bool {
		ms := bottest.BotMessages(h.srv.Messages(dm))
		if len(ms) > 0 {
			got = bottest.BlockTexts(t, ms[0])
		}
		return len(ms) > 0
	}); err != nil {
		t.Fatalf("no DM reply: %v", err)
	}
	if !strings.Contains(got, "Papers for “protein conformations”") {
		t.Errorf("DM reply:\n%s", got)
	}
	// Help in a DM shows commands without a prefix.
	h.srv.DirectMessage("U3", "help")
	dm3 := h.srv.DMChannel("U3")
	if err := h.srv.WaitFor(wait, func() bool { return len(bottest.BotMessages(h.srv.Messages(dm3))) > 0 }); err != nil {
		t.Fatal(err)
	}
	if help := bottest.BlockTexts(t, bottest.BotMessages(h.srv.Messages(dm3))[0]); !strings.Contains(help, "`show ID`") || strings.Contains(help, "/paper show") {
		t.Errorf("DM help should show bare commands:\n%s", help)
	}
}

// TestE2EIgnoresBotsEditsAndOwnMessages: every envelope is acked, none is
// answered, so the bot cannot loop with itself or other bots.
func TestE2EIgnoresBotsEditsAndOwnMessages(t *testing.T) {
	h := startBot(t, harnessOpts{})
	dm := h.srv.DMChannel("U1")
	human, _ := h.srv.DirectMessage("U1", "protein")
	h.WaitAck(human)
	if err := h.srv.WaitFor(wait, func() bool { return len(bottest.BotMessages(h.srv.Messages(dm))) == 1 }); err != nil {
		t.Fatal(err)
	}
	first := h.srv.Messages(dm)[0]
	var envs []string
	own, _ := h.srv.BotMessage(dm, "", "<@UBOTPAPER1> protein")
	other, _ := h.srv.BotMessage("C1", "BOTHER", "<@UBOTPAPER1> protein")
	edit, _, err := h.srv.EditMessage(dm, first.TS, "protein folding")
	if err != nil {
		t.Fatal(err)
	}
	envs = append(envs, own, other, edit)
	for _, e := range envs {
		h.WaitAck(e)
	}
	h.Sentinel("U9")
	if n := len(bottest.BotMessages(h.srv.Messages(dm))); n != 1 {
		t.Errorf("bot posted %d messages in the DM, want 1 (bot and edited messages must be ignored)", n)
	}
	if n := len(bottest.BotMessages(h.srv.Messages("C1"))); n != 0 {
		t.Errorf("bot answered another bot in C1 (%d messages)", n)
	}
}

func TestE2EAppHome(t *testing.T) {
	h := startBot(t, harnessOpts{})
	env, _ := h.srv.AppHomeOpened("U1")
	h.WaitAck(env)
	if err := h.srv.WaitFor(wait, func() bool { return len(h.srv.HomeViews("U1")) > 0 }); err != nil {
		t.Fatalf("no Home view published: %v", err)
	}
	v := h.srv.HomeViews("U1")[0]
	home := string(v.Blocks)
	stats := testIndex(t).Stats()
	for _, want := range []string{"57 papers", "ICML 2025", "/paper show aay87f2q", "/paper similar ID", "any papers on protein conformations?"} {
		if !strings.Contains(home, want) {
			t.Errorf("Home lacks %q", want)
		}
	}
	if stats.Papers != 57 {
		t.Errorf("seed index has %d papers, want 57", stats.Papers)
	}
}

// TestE2EMentionErrorsArePrivate: a mistake in a channel is pointed out to
// the asker alone, not to the whole channel.
func TestE2EMentionErrorsArePrivate(t *testing.T) {
	h := startBot(t, harnessOpts{})
	env, _ := h.srv.Mention("C1", "U1", "show zzzzzzzz")
	h.WaitAck(env)
	e := h.WaitEphemeral("C1", "U1", 1)
	if e.Source != "chat.postEphemeral" || !strings.Contains(bottest.BlockTexts(t, e), ":warning:") {
		t.Errorf("error reply = %s %q", e.Source, bottest.BlockTexts(t, e))
	}
	if e.ThreadTS != h.srv.Messages("C1")[0].TS {
		t.Errorf("error reply in thread %q, want under the mention", e.ThreadTS)
	}
	h.Sentinel("U9")
	if n := len(bottest.BotMessages(h.srv.Messages("C1"))); n != 0 {
		t.Errorf("%d public messages for a private error", n)
	}
}

// Thanking the bot gets a word back, not a search for "thanks" ("has only
// common words") nor a list of papers that say "cool".
func TestE2EThanksAnsweredInKind(t *testing.T) {
	h := startBot(t, harnessOpts{})
	env, _ := h.srv.Mention("C1", "U1", "thanks, that helps!")
	h.WaitAck(env)
	mention := h.srv.Messages("C1")[0]
	if text := bottest.BlockTexts(t, h.WaitThread("C1", mention.TS, 1)[0]); !strings.Contains(text, "You're welcome") || strings.Contains(text, "Papers for") {
		t.Errorf("mention reply to thanks:\n%s", text)
	}
	h.Slash("UT1", "C1", "ok cool, thank you so much")
	if text := bottest.BlockTexts(t, h.WaitEphemeral("C1", "UT1", 1)); !strings.Contains(text, "You're welcome") || !strings.Contains(text, "/paper help") {
		t.Errorf("slash reply to thanks:\n%s", text)
	}
	// Words beside the thanks are a question: it is searched.
	h.Slash("UT2", "C1", "thanks! any papers on kv cache?")
	if text := bottest.BlockTexts(t, h.WaitEphemeral("C1", "UT2", 1)); strings.Contains(text, "You're welcome") {
		t.Errorf("a question after thanks was not searched:\n%s", text)
	}
}
