package bot

import (
	"strings"
	"unicode/utf8"

	"github.com/slack-go/slack"
)

// maxHelpWords: a search of at most this many words that finds nothing is
// likely a mistyped or unknown command, so help is shown with the answer.
const maxHelpWords = 2

// withUnknownWordsHelp adds, to a "nothing relevant" reply for a short
// query, a "did you mean" line when the first word is a near miss of a
// command name, and the help listing.
func (b *Bot) withUnknownWordsHelp(rep *Reply, req *Request, query string) *Reply {
	words := strings.Fields(query)
	if len(words) == 0 || len(words) > maxHelpWords {
		return rep
	}
	if name := nearCommand(b.table, words[0]); name != "" {
		fixed := strings.TrimSpace(req.Invocation + name + " " + strings.Join(words[1:], " "))
		rep.Blocks = append(rep.Blocks, slack.NewSectionBlock(mrkdwn("Did you mean `"+EscapeInline(fixed)+"`?"), nil, nil,
			slack.SectionBlockOptionBlockID("did_you_mean")))
	}
	if len(rep.Blocks) > 2 {
		return rep // the closest papers are shown: no room for the whole help
	}
	help := renderHelp(b.table.commands, req.Invocation, b.mentionName())
	if len(rep.Blocks)+len(help.Blocks) <= 50 {
		rep.Blocks = append(rep.Blocks, slack.NewDividerBlock())
		rep.Blocks = append(rep.Blocks, help.Blocks...)
	}
	return rep
}

// nearCommand returns the command name word is one or two edits away from
// (not the search fallback), or "".
func nearCommand(t *commandTable, word string) string {
	w := strings.ToLower(word)
	if utf8.RuneCountInString(w) < 3 {
		return ""
	}
	best, bestDist := "", 3
	for _, c := range t.commands {
		if c.Name == cmdSearch || c.Name == w {
			continue
		}
		limit := 1
		if utf8.RuneCountInString(c.Name) >= 6 {
			limit = 2
		}
		if d := editDistance(w, c.Name); d <= limit && d < bestDist {
			best, bestDist = c.Name, d
		}
	}
	return best
}

// editDistance is the optimal-string-alignment distance between a and b in
// runes: insertions, deletions, substitutions and swaps of neighbours
// ("hlep" is one edit from "help").
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
