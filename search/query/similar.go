package query

import (
	"strings"

	"github.com/paperbot/paperbot/search/lexicon"
)

// People ask for papers like one they know in words: "papers similar to
// Vision Transformers Need Registers", "anything like aay87f2q?". The bot
// and the CLI answer that with the papers like it, when the words name one
// paper; otherwise it is a search like any other.

// similarOpeners may come before "similar to", "related to" or "like".
var similarOpeners = lexicon.Words("context", "before-similar")

// maxSimilarOpeners bounds the words before "similar to": past it the
// request is a sentence about something else.
const maxSimilarOpeners = 6

// SimilarTarget returns the paper a request for papers like another names
// (an ID or a title, quotes trimmed), and false when text is no such
// request. "similar to X" may open the text; "like X" and "related to X"
// need an opener ("papers like X", "anything related to X"), since "like"
// alone starts sentences of other kinds.
func SimilarTarget(text string) (string, bool) {
	words := strings.Fields(text)
	i := 0
	for i < len(words) && i < maxSimilarOpeners && similarOpeners[BareWord(words[i])] {
		i++
	}
	if i >= len(words) {
		return "", false
	}
	w := BareWord(words[i])
	next := ""
	if i+1 < len(words) {
		next = BareWord(words[i+1])
	}
	var rest []string
	switch {
	case (w == "similar" || w == "related" && i > 0) && next == "to":
		rest = words[i+2:]
	case w == "like" && i > 0:
		rest = words[i+1:]
	default:
		return "", false
	}
	target := strings.TrimSpace(strings.Join(rest, " "))
	target = strings.TrimRight(target, "?!. ")
	target = strings.Trim(target, "\"“”'`‘’ ")
	return target, target != ""
}
