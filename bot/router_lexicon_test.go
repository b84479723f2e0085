package bot

import (
	"strings"
	"testing"

	"github.com/paperbot/paperbot/search/lexicon"
)

// Every row of the lexicon the router reads has an example that the
// router answers as the row's role says, and that it answers otherwise
// with the word replaced by one it does not know.
func TestLexiconRouterExamples(t *testing.T) {
	table, err := newCommandTable((&Bot{}).builtinCommands(), nil)
	if err != nil {
		t.Fatal(err)
	}
	help := func(text string) bool { c, _ := table.route(text); return c.Name == cmdHelp }
	says := map[string]func(string) bool{
		"help": help, "greeting": help, "bot-question": asksAboutBot, "bot": asksAboutBot,
		"thanks": onlyThanks, "ack": onlyThanks,
	}
	n := 0
	for _, r := range lexicon.Rows() {
		is, ok := says[r.Role]
		if !ok {
			continue
		}
		n++
		other := strings.Replace(r.Example, r.Word, "zebra", 1)
		if !strings.Contains(r.Example, r.Word) || !is(r.Example) || is(other) {
			t.Errorf("lexicon.tsv:%d: %q (%s): the router does not read %q as the word's role", r.Line, r.Word, r.Role, r.Example)
		}
	}
	if n == 0 {
		t.Fatal("no rows of the router's roles")
	}
}
