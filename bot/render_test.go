package bot

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/slack-go/slack"

	"github.com/paperbot/paperbot/bot/bottest"
	"github.com/paperbot/paperbot/search"
)

func results(query string, total, offset int, rs ...search.Result) *search.Results {
	return &search.Results{Query: query, Total: total, Offset: offset, Results: rs}
}

func TestRenderGolden(t *testing.T) {
	ok := fixedResult()
	plainOnly := fixedResult()
	plainOnly.Answer = ""
	noURL := fixedResult()
	noURL.URL = ""
	noURL.CodeURLs = nil
	cmds := (&Bot{}).builtinCommands()
	tests := []struct {
		name  string
		reply *Reply
	}{
		{"results_private_first_page", renderResults(resultsView{
			Results: results("protein conformations", 12, 0, ok, plainOnly, noURL),
			State:   viewState{Kind: viewSearch, Arg: "protein conformations"},
			Heading: "Papers for “protein conformations”", Help: "/paper help", PageSize: 3})},
		{"results_private_middle_page", renderResults(resultsView{
			Results: results("protein conformations", 12, 3, plainOnly, noURL),
			State:   viewState{Kind: viewSearch, Arg: "protein conformations", Offset: 3},
			Heading: "Papers for “protein conformations”", Help: "/paper help", PageSize: 3})},
		{"results_mention_answer_first", renderResults(resultsView{
			Results: results("any papers on protein conformations?", 7, 0, ok, noURL),
			State:   viewState{Kind: viewSearch, Arg: "any papers on protein conformations?"},
			Heading: "Papers for “any papers on protein conformations?”", Public: true, QuoteAnswer: true,
			Help: "@paperbot help", PageSize: 2})},
		{"results_shared", renderResults(resultsView{
			Results: results("protein", 1, 0, ok),
			State:   viewState{Kind: viewSearch, Arg: "protein"},
			Heading: "Papers for “protein”", Public: true, SharedBy: "U0SHARER", PageSize: 5})},
		{"similar", renderResults(resultsView{
			Results: results("", 2, 0, plainOnly, noURL),
			State:   viewState{Kind: viewSimilar, Arg: "aay87f2q"},
			Heading: "Papers like “Symmetry-Driven Discovery”", PageSize: 5})},
		{"nothing_relevant", renderResults(resultsView{
			Results: &search.Results{Query: "zebra migration", NoMatch: true, Results: []search.Result{ok}},
			State:   viewState{Kind: viewSearch, Arg: "zebra migration"}, Help: "/paper help"})},
		{"nothing_similar", renderResults(resultsView{
			Results: &search.Results{}, State: viewState{Kind: viewSimilar, Arg: "aay87f2q"}, Help: "/paper help"})},
		{"paper_private", renderPaper(paperView{Paper: fixedPaper(), Buttons: true})},
		{"paper_public", renderPaper(paperView{Paper: fixedPaper(), Buttons: true, Public: true})},
		{"help_slash", renderHelp(cmds, "/paper ", "@paperbot")},
		{"help_dm", renderHelp(cmds, "", "@paperbot")},
		{"hostile_results", renderResults(resultsView{
			Results: results("<!channel> & <@U123>", 3, 0, hostileResult(), emptyResult(), unicodeResult()),
			State:   viewState{Kind: viewSearch, Arg: "<!channel> & <@U123>"},
			Heading: "Papers for “<!channel> & <@U123>”", Public: true, QuoteAnswer: true, Help: "@paperbot help", PageSize: 3})},
		{"hostile_paper", renderPaper(paperView{Paper: hostilePaper(), Buttons: true})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkSafe(t, tt.reply, "U0SHARER")
			checkGolden(t, tt.name, tt.reply)
		})
	}
}

func TestHomeGolden(t *testing.T) {
	blocks := renderHome((&Bot{}).builtinCommands(), "/paper", "@paperbot",
		search.Stats{Papers: 57, Venues: []string{"ICML 2025", "<!channel> Conf"}})
	rep := &Reply{Text: "App Home", Blocks: blocks}
	checkSafe(t, rep)
	checkGolden(t, "home", rep)
	var decoded []map[string]any
	if err := json.Unmarshal([]byte(mustJSON(t, blocks)), &decoded); err != nil {
		t.Fatal(err)
	}
	var texts []string
	texts = append(texts, bottest.Texts(decoded)...)
	all := strings.Join(texts, "\n")
	for _, want := range []string{"57 papers", "ICML 2025", "/paper show aay87f2q", "&lt;!channel&gt; Conf"} {
		if !strings.Contains(all, want) {
			t.Errorf("App Home lacks %q", want)
		}
	}
}

// TestRenderEverySeedPaper renders a card, a results page and the full
// paper for every seed paper and checks Slack's limits and escaping.
func TestRenderEverySeedPaper(t *testing.T) {
	papers := seedPapers(t)
	var page []search.Result
	for i, p := range papers {
		r := search.Result{Paper: p, Snippet: search.Snippet{{Text: p.Abstract[:min(len(p.Abstract), 200)]}}, Matched: []string{"model"}}
		card := CardBlocks(r, CardOptions{Index: i, Buttons: true})
		checkSafe(t, &Reply{Text: "card", Blocks: card})
		if !strings.Contains(mustJSON(t, card), p.ID) {
			t.Errorf("card for %s does not show its ID", p.ID)
		}
		full := renderPaper(paperView{Paper: p, Buttons: true})
		checkSafe(t, full)
		if got := abstractText(t, full.Blocks); got != normalizeSpace(Escape(p.Abstract)) {
			t.Errorf("paper %s: abstract sections do not add up to the abstract:\n got %q\nwant %q", p.ID, got, Escape(p.Abstract))
		}
		page = append(page, r)
		if len(page) == maxPageSize || i == len(papers)-1 {
			rep := renderResults(resultsView{Results: results("q", len(papers), 0, page...), State: viewState{Kind: viewSearch, Arg: "q"},
				Heading: "Papers for “q”", PageSize: maxPageSize})
			checkSafe(t, rep)
			page = nil
		}
	}
}

// TestCardContent pins the user-visible pieces of a card.
func titleOnlyResult() search.Result {
	return search.Result{Paper: search.Paper{ID: "kz66zy5k", Title: "A loss framework for calibrated anomaly detection",
		Headline: "A loss framework for calibrated anomaly detection", Authors: []string{"Aditya Menon", "Robert Williamson"}, Venue: "NeurIPS 2018"},
		Score: 1, Matched: []string{"calibrated", "anomaly"}}
}

func TestCardContent(t *testing.T) {
	tests := []struct {
		name    string
		result  search.Result
		opts    CardOptions
		want    []string
		notWant []string
	}{
		{"linked title, short authors, venue, answer quote, code",
			fixedResult(), CardOptions{Buttons: true},
			[]string{"*<https://icml.cc/virtual/2025/poster/45068|Symmetry-Driven", "`aay87f2q`",
				"Jeet Mohapatra, Nima Dehmamy, Csaba Both et al.", "ICML 2025", "> We apply our method",
				"<https://github.com/example/symmetry|Code>", "Matched *protein*, *conformations*", "Show abstract", "More like this"},
			[]string{"ICML 2025 2025", "Subhro"}},
		{"snippet marks become bold when the answer is quoted above",
			fixedResult(), CardOptions{NoAnswer: true},
			[]string{"*conformational*", "*conformations*"},
			[]string{"> We apply", "Show abstract"}},
		{"unsafe URL is not linked",
			hostileResult(), CardOptions{},
			[]string{"&lt;!channel&gt;", "<https://github.com/ok/repo|Code>", "A &amp; B", "et al."},
			[]string{"javascript:", "<!channel>", "ftp://", "\u202e"}},
		{"headline when there is no title",
			unicodeResult(), CardOptions{},
			[]string{"学习 表示 🧬", "Zoë Ångström, 李 雷, محمد", "NeurIPS 2024", "*学习*"},
			[]string{"et al."}},
		{"empty paper still renders",
			emptyResult(), CardOptions{Buttons: true},
			[]string{"Untitled paper e0000000", "`e0000000`"}, nil},
		{"a paper listed by its title alone says so, and offers no abstract to show",
			titleOnlyResult(), CardOptions{Buttons: true},
			[]string{"A loss framework for calibrated anomaly detection", "No abstract: the corpus lists this paper by its title only.", "More like this"},
			[]string{"Show abstract"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			blocks := CardBlocks(tt.result, tt.opts)
			checkSafe(t, &Reply{Text: "x", Blocks: blocks})
			var texts []string
			var decoded []map[string]any
			if err := json.Unmarshal([]byte(mustJSON(t, blocks)), &decoded); err != nil {
				t.Fatal(err)
			}
			texts = append(texts, bottest.Texts(decoded)...)
			all := strings.Join(texts, "\n")
			for _, w := range tt.want {
				if !strings.Contains(all, w) {
					t.Errorf("card lacks %q:\n%s", w, all)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(all, w) {
					t.Errorf("card contains %q:\n%s", w, all)
				}
			}
		})
	}
}

func TestResultsButtons(t *testing.T) {
	ok := fixedResult()
	tests := []struct {
		name   string
		view   resultsView
		wantID []string
		noID   []string
	}{
		{"first private page: next and share", resultsView{Results: results("q", 9, 0, ok), State: viewState{Kind: viewSearch, Arg: "q"}, PageSize: 1},
			[]string{"page:next", "share:0", "abstract:0", "similar:0"}, []string{"page:prev"}},
		{"last private page: previous and share", resultsView{Results: results("q", 9, 8, ok), State: viewState{Kind: viewSearch, Arg: "q", Offset: 8}, PageSize: 1},
			[]string{"page:prev", "share:0"}, []string{"page:next"}},
		{"public page: more results, no share", resultsView{Results: results("q", 9, 0, ok), State: viewState{Kind: viewSearch, Arg: "q"}, Public: true, PageSize: 1},
			[]string{"page:next"}, []string{"share:0", "page:prev"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := renderResults(tt.view)
			ids := actionIDs(rep.Blocks)
			for _, id := range tt.wantID {
				if _, ok := ids[id]; !ok {
					t.Errorf("no button %q in %v", id, ids)
				}
			}
			for _, id := range tt.noID {
				if _, ok := ids[id]; ok {
					t.Errorf("unexpected button %q", id)
				}
			}
			if v, ok := ids["page:next"]; ok {
				st, err := decodeState(v)
				if err != nil || st.Offset != tt.view.Results.Offset+1 || st.Arg != "q" {
					t.Errorf("next carries %+v, %v", st, err)
				}
			}
		})
	}
}

// actionIDs maps each button's action_id to its value.
func actionIDs(blocks []slack.Block) map[string]string {
	ids := map[string]string{}
	for _, b := range blocks {
		if a, ok := b.(*slack.ActionBlock); ok {
			for _, e := range a.Elements.ElementSet {
				if btn, ok := e.(*slack.ButtonBlockElement); ok {
					ids[btn.ActionID] = btn.Value
				}
			}
		}
	}
	return ids
}

// abstractText joins the abstract sections of a paper message.
func abstractText(t *testing.T, blocks []slack.Block) string {
	t.Helper()
	var parts []string
	for _, b := range blocks {
		if s, ok := b.(*slack.SectionBlock); ok && strings.HasPrefix(s.BlockID, "abstract_") {
			parts = append(parts, s.Text.Text)
		}
	}
	return normalizeSpace(strings.Join(parts, " "))
}

func normalizeSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A page of results names the query's words none of its papers has, escaped
// like all user text; a page that has them all says nothing of it.
func TestRenderMissingWords(t *testing.T) {
	res := results("legal <!channel> summarization", 1, 0, fixedResult())
	res.Missing = []string{"legal", "<!channel>"}
	rep := renderResults(resultsView{Results: res, State: viewState{Kind: viewSearch, Arg: "q"}, Heading: "Papers", PageSize: 5})
	checkSafe(t, rep)
	if err := checkLimits(rep.Text, rep.Blocks); err != nil {
		t.Fatal(err)
	}
	if got := mustJSON(t, rep.Blocks); !strings.Contains(got, `None of these papers has “legal” or “\u0026lt;!channel\u0026gt;”.`) {
		t.Errorf("no line naming the missing words:\n%s", got)
	}
	res.Missing = nil
	if got := mustJSON(t, renderResults(resultsView{Results: res, State: viewState{Kind: viewSearch, Arg: "q"}, Heading: "Papers", PageSize: 5}).Blocks); strings.Contains(got, "None of these papers") {
		t.Errorf("a missing-words line with none missing:\n%s", got)
	}
}
