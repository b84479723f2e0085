package bot

import (
	"strings"
	"unicode"
)

// Names of the built-in commands the router relies on.
const (
	cmdSearch  = "search"
	cmdHelp    = "help"
	cmdShow    = "show"
	cmdSimilar = "similar"
)

// helpWords are the texts that mean "help" besides the help command itself.
var helpWords = map[string]bool{"help": true, "?": true, "-h": true, "--help": true, "usage": true, "commands": true}

// route picks the command for text: the command named by the first word,
// help for empty text, help words and text with no letters or digits, and
// otherwise the search command with the whole text as its argument.
func (t *commandTable) route(text string) (cmd *Command, args string) {
	text = strings.TrimSpace(text)
	first, rest, _ := strings.Cut(text, " ")
	word := strings.ToLower(strings.TrimSpace(first))
	if text == "" || helpWords[word] && strings.TrimSpace(rest) == "" || !hasWordRune(text) {
		return t.byName[cmdHelp], ""
	}
	if c, ok := t.byName[word]; ok {
		return c, strings.TrimSpace(rest)
	}
	return t.byName[cmdSearch], text
}

func hasWordRune(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}
