package search

import "strings"

// People ask for papers like one they know in words: "papers similar to
// Vision Transformers Need Registers", "anything like aay87f2q?". The bot
// and the CLI answer that with the papers like it, when the words name one
// paper; otherwise it is a search like any other.

// similarOpeners may come before "similar to", "related to" or "like".
var similarOpeners = map[string]bool{
	"find": true, "show": true, "give": true, "me": true, "any": true, "anything": true,
	"something": true, "more": true, "other": true, "others": true, "some": true,
	"papers": true, "paper": true, "work": true, "works": true, "stuff": true, "ones": true,
	"what": true, "what's": true, "else": true, "is": true, "are": true, "there": true,
	"do": true, "you": true, "have": true, "can": true, "could": true, "please": true,
	"hi": true, "hey": true, "hello": true, "i": true, "want": true, "need": true,
	"looking": true, "for": true, "i'm": true,
}

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
	for i < len(words) && i < maxSimilarOpeners && similarOpeners[bareWord(words[i])] {
		i++
	}
	if i >= len(words) {
		return "", false
	}
	w := bareWord(words[i])
	next := ""
	if i+1 < len(words) {
		next = bareWord(words[i+1])
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
