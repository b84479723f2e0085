package bot

import (
	"strings"
	"testing"

	"github.com/paperbot/paperbot/bot/bottest"
	"github.com/paperbot/paperbot/search"
)

func TestE2ESlashSearch(t *testing.T) {
	h := startBot(t, harnessOpts{})
	env := h.Slash("U1", "C1", "protein conformations")
	ack := h.WaitAck(env)
	if ack.Payload != nil {
		t.Errorf("ack carried a payload %s; replies go through response_url", ack.Payload)
	}
	m := h.WaitEphemeral("C1", "U1", 1)
	if m.Source != "response_url" || !m.Ephemeral || m.Recipient != "U1" {
		t.Fatalf("reply = %+v, want an ephemeral for U1 through response_url", m)
	}
	text := bottest.BlockTexts(t, m)
	for _, want := range []string{"Papers for “protein conformations”", "Symmetry-Driven Discovery", "aay87f2q", "Results 1–"} {
		if !strings.Contains(text, want) {
			t.Errorf("reply lacks %q:\n%s", want, text)
		}
	}
	for _, id := range []string{"abstract:0", "similar:0", "share:0"} {
		if !bottest.HasButton(t, m, id) {
			t.Errorf("reply has no %s button", id)
		}
	}
}

func TestE2ECommands(t *testing.T) {
	h := startBot(t, harnessOpts{})
	tests := []struct {
		name    string
		text    string
		want    []string
		notWant []string
	}{
		{"show", "show aay87f2q", []string{"Symmetry-Driven Discovery", "Alanine dipeptide", "Paper page", "More like this"}, nil},
		{"show upper-case id with backticks", "show `AAY87F2Q`", []string{"Symmetry-Driven Discovery"}, nil},
		{"help", "help", []string{"What I can do", "/paper show ID", "Example: `/paper show aay87f2q`", "/paper similar ID", "/paper QUERY"}, nil},
		{"empty is help", "", []string{"What I can do"}, nil},
		{"punctuation is help", "?!", []string{"What I can do"}, nil},
		{"show without id", "show", []string{"Usage: `/paper show ID`"}, nil},
		{"unknown id", "show zzzzzzzz", []string{":warning:"}, []string{"something went wrong"}},
		{"nothing relevant", "xylophone zeppelin marmalade", []string{"Nothing relevant", "/paper help"}, nil},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			user := "UCMD" + string(rune('A'+i))
			h.Slash(user, "C1", tt.text)
			m := h.WaitEphemeral("C1", user, 1)
			text := bottest.BlockTexts(t, m)
			checkSafe(t, &Reply{Text: m.Text, Blocks: bottest.Blocks(t, m)})
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("reply to %q lacks %q:\n%s", tt.text, w, text)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(text, w) {
					t.Errorf("reply to %q contains %q:\n%s", tt.text, w, text)
				}
			}
		})
	}
}

// TestE2ESimilar checks the reply shows what the index answers: the closest
// papers, or plainly nothing when the index finds none really similar.
func TestE2ESimilar(t *testing.T) {
	h := startBot(t, harnessOpts{})
	for _, p := range seedPapers(t)[:5] {
		t.Run(p.ID, func(t *testing.T) {
			res, err := testIndex(t).Similar(t.Context(), p.ID, 5)
			if err != nil {
				t.Fatal(err)
			}
			user := "USIM" + p.ID
			h.Slash(user, "C1", "similar "+p.ID)
			text := bottest.BlockTexts(t, h.WaitEphemeral("C1", user, 1))
			if strings.Contains(text, "`"+p.ID+"` ·") {
				t.Errorf("similar to %s lists the paper itself:\n%s", p.ID, text)
			}
			if res.NoMatch || len(res.Results) == 0 {
				if !strings.Contains(text, "Nothing relevant similar to `"+p.ID+"`") {
					t.Errorf("index found nothing similar, reply does not say so:\n%s", text)
				}
				return
			}
			for _, want := range []string{"Papers like “", res.Results[0].ID} {
				if !strings.Contains(text, want) {
					t.Errorf("reply lacks %q:\n%s", want, text)
				}
			}
		})
	}
}

// A paper can be named by its title, typed as people remember it (other
// case and punctuation), where an ID is expected.
func TestE2EShowAndSimilarByTitle(t *testing.T) {
	h := startBot(t, harnessOpts{})
	p := seedPapers(t)[3]
	typed := strings.ToLower(strings.NewReplacer(":", "", ",", "", "-", " ").Replace(p.Title))
	res, err := testIndex(t).Similar(t.Context(), p.ID, 5)
	if err != nil {
		t.Fatal(err)
	}
	h.Slash("UT1", "C1", "similar "+typed)
	text := bottest.BlockTexts(t, h.WaitEphemeral("C1", "UT1", 1))
	if strings.Contains(text, ":warning:") || len(res.Results) > 0 && !strings.Contains(text, res.Results[0].ID) {
		t.Errorf("similar %q: reply is not the papers like %s:\n%s", typed, p.ID, text)
	}
	// Asked in words, in a search or a mention, it is the same answer.
	h.Slash("UT4", "C1", "papers similar to \""+p.Title+"\"?")
	text = bottest.BlockTexts(t, h.WaitEphemeral("C1", "UT4", 1))
	if len(res.Results) > 0 && !strings.Contains(text, res.Results[0].ID) || !strings.Contains(text, "Papers like") {
		t.Errorf("papers similar to %q: reply is not the papers like %s:\n%s", p.Title, p.ID, text)
	}
	h.Slash("UT2", "C1", "show "+typed)
	text = bottest.BlockTexts(t, h.WaitEphemeral("C1", "UT2", 1))
	if !strings.Contains(text, p.ID) {
		t.Errorf("show %q: reply is not paper %s:\n%s", typed, p.ID, text)
	}
	h.Slash("UT3", "C1", "show no such title at all")
	if text := bottest.BlockTexts(t, h.WaitEphemeral("C1", "UT3", 1)); !strings.Contains(text, "no paper has the ID or the title") {
		t.Errorf("unknown title: reply does not say so:\n%s", text)
	}
}

// TestE2EUnknownWordsGetHelp: a short query that finds nothing looks like an
// unknown command: the reply says so plainly and lists the commands.
func TestE2EUnknownWordsGetHelp(t *testing.T) {
	h := startBot(t, harnessOpts{})
	tests := []struct {
		text string
		want []string
		not  []string
	}{
		{"shw aay87f2q", []string{"Nothing relevant", "Did you mean `/paper show aay87f2q`?", "What I can do"}, nil},
		{"frobnicate", []string{"Nothing relevant", "What I can do"}, []string{"Did you mean"}},
		{"xylophone zeppelin marmalade", []string{"Nothing relevant", "/paper help"}, []string{"What I can do"}},
	}
	for i, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			user := "UUNK" + string(rune('A'+i))
			h.Slash(user, "C1", tt.text)
			m := h.WaitEphemeral("C1", user, 1)
			checkSafe(t, &Reply{Text: m.Text, Blocks: bottest.Blocks(t, m)})
			text := bottest.BlockTexts(t, m)
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("reply lacks %q:\n%s", w, text)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(text, w) {
					t.Errorf("reply contains %q:\n%s", w, text)
				}
			}
		})
	}
}

// TestE2EInternalErrorApologises uses a closed index, whose every search
// fails internally: the user gets a short apology, the log the detail, and
// the query text stays out of the log.
func TestE2EInternalErrorApologises(t *testing.T) {
	seedPapers(t)
	ix, err := search.Open(t.Context(), seedCorpus, search.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ix.Close()
	h := startBot(t, harnessOpts{search: ix})
	h.Slash("U1", "C1", "secret-query-words")
	text := bottest.BlockTexts(t, h.WaitEphemeral("C1", "U1", 1))
	if !strings.Contains(text, "Sorry, something went wrong on my side") {
		t.Errorf("reply to an internal error:\n%s", text)
	}
	bottest.WaitUntil(t, "error counted", func() bool { return metricValue(t, h.bot, "paperbot_errors_total", "internal") == 1 })
	logs := h.logs.String()
	if !strings.Contains(logs, "request failed") || strings.Contains(logs, "secret-query-words") {
		t.Errorf("log should record the failure without the query text:\n%s", logs)
	}
}

// A pasted abstract, longer than any query, gets the papers like it. Its
// page has no pager or Share button: the text does not fit in a button.
func TestE2EPastedAbstract(t *testing.T) {
	h := startBot(t, harnessOpts{})
	abstract := "We present a method that discovers the effective degrees of freedom of molecular dynamics " +
		"simulations from approximate symmetries of the energy landscape, without trajectory data. " +
		"A symmetry loss compatible with existing force fields and a Hessian-based variant for small systems " +
		"let us explore conformational space; on alanine dipeptide and chignolin the method recovers the known " +
		"important conformations, which may help protein folding and drug discovery studies that need cheap sampling. " +
		strings.Repeat("We also report ablations over loss weights, system sizes and force fields. ", 12)
	if !search.PastedText(abstract) {
		t.Fatal("the test abstract reads as a query")
	}
	h.Slash("UPASTE", "C1", abstract)
	m := h.WaitEphemeral("C1", "UPASTE", 1)
	checkSafe(t, &Reply{Text: m.Text, Blocks: bottest.Blocks(t, m)})
	text := bottest.BlockTexts(t, m)
	for _, want := range []string{"Papers like the text you pasted", "Symmetry-Driven Discovery"} {
		if !strings.Contains(text, want) {
			t.Errorf("reply lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "too long") {
		t.Errorf("reply calls the abstract too long:\n%s", text)
	}
	if !bottest.HasButton(t, m, "similar:0") {
		t.Error("cards lost their More like this button")
	}
	for _, id := range []string{"share:0", "page:next"} {
		if bottest.HasButton(t, m, id) {
			t.Errorf("reply has a %s button, whose value cannot hold the text", id)
		}
	}
}

// A paper's link, pasted as Slack sends it (<url>, or <url|name> when the
// user named it), stands for the paper wherever an ID does, and alone it
// shows that paper; a link no paper has is said to be unknown.
func TestE2EPaperByLink(t *testing.T) {
	h := startBot(t, harnessOpts{})
	p := seedPapers(t)[3]
	link := strings.Replace(p.URL, "https://", "http://www.", 1) + "/"
	res, err := testIndex(t).Similar(t.Context(), p.ID, 5)
	if err != nil || len(res.Results) == 0 {
		t.Fatalf("similar %s: %v, %v", p.ID, res, err)
	}
	h.Slash("UT1", "C1", "similar <"+link+">")
	text := bottest.BlockTexts(t, h.WaitEphemeral("C1", "UT1", 1))
	if !strings.Contains(text, "Papers like") || !strings.Contains(text, res.Results[0].ID) {
		t.Errorf("similar <link>: reply is not the papers like %s:\n%s", p.ID, text)
	}
	h.Slash("UT2", "C1", "<"+link+"|this one>")
	text = bottest.BlockTexts(t, h.WaitEphemeral("C1", "UT2", 1))
	if !strings.Contains(text, p.ID) || strings.Contains(text, "Nothing") {
		t.Errorf("a named link: reply is not paper %s:\n%s", p.ID, text)
	}
	env, _ := h.srv.Mention("C1", "U1", "any papers like <"+p.URL+">?")
	h.WaitAck(env)
	text = bottest.BlockTexts(t, h.WaitThread("C1", h.srv.Messages("C1")[0].TS, 1)[0])
	if !strings.Contains(text, "Papers like") || !strings.Contains(text, res.Results[0].ID) {
		t.Errorf("mention with a link: reply is not the papers like %s:\n%s", p.ID, text)
	}
	h.Slash("UT3", "C1", "show <https://arxiv.org/abs/2401.00001>")
	if text := bottest.BlockTexts(t, h.WaitEphemeral("C1", "UT3", 1)); !strings.Contains(text, "no paper here has the link") {
		t.Errorf("unknown link: reply does not say so:\n%s", text)
	}
}
