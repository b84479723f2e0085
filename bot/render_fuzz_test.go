package bot

import (
	"strings"
	"testing"

	"github.com/paperbot/paperbot/bot/blockkit"
	"github.com/paperbot/paperbot/search"
)

// FuzzRenderHostile renders arbitrary titles, authors, URLs, snippets and
// queries: the result must stay within Slack's limits and every <…> in it
// must be a safe http(s) link.
func FuzzRenderHostile(f *testing.F) {
	f.Add("<!channel> title", "A & <@U1>", "javascript:x", "snip *mark* `c`", "<http://evil|q>", 3)
	f.Add(strings.Repeat("long ", 70), "", "https://ok.example/a", "", "", 0)
	f.Fuzz(func(t *testing.T, title, author, url, snippet, query string, split int) {
		cut := 0
		if len(snippet) > 0 {
			cut = (split%len(snippet) + len(snippet)) % len(snippet)
		}
		r := search.Result{
			Paper: search.Paper{ID: "f1", Title: title, Authors: []string{author, author, author, author}, URL: url,
				CodeURLs: []string{url}, Abstract: snippet + title, Venue: author, Year: 2025},
			Snippet: search.Snippet{{Text: snippet[:cut]}, {Text: snippet[cut:], Mark: true}, {Text: title}},
			Answer:  snippet, Matched: []string{query, author},
		}
		page := results(query, 2, 0, r, r)
		page.Missing = []string{query, author}
		for _, rep := range []*Reply{
			renderResults(resultsView{Results: page, State: viewState{Kind: viewSearch, Arg: "q"},
				Heading: "Papers for “" + query + "”", Public: true, QuoteAnswer: true, PageSize: 2}),
			renderResults(resultsView{Results: &search.Results{NoMatch: true}, State: viewState{Kind: viewSearch, Arg: query}, Help: "/paper help"}),
			renderPaper(paperView{Paper: r.Paper, Buttons: true}),
		} {
			if err := checkLimits(rep.Text, rep.Blocks); err != nil {
				t.Fatalf("checkLimits: %v", err)
			}
			if err := blockkit.ValidateMessage(rep.Text, rep.Blocks); err != nil {
				t.Fatalf("blockkit: %v", err)
			}
			checkSafe(t, rep)
		}
	})
}
