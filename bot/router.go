package bot

import (
	"strings"
	"unicode"

	"github.com/paperbot/paperbot/search/lexicon"
)

// Names of the built-in commands the router relies on.
const (
	cmdSearch  = "search"
	cmdHelp    = "help"
	cmdShow    = "show"
	cmdSimilar = "similar"
)

// helpWords are the texts that mean "help" besides the help command itself.
var helpWords = lexicon.Words("help", "alone")

// greetingWords alone greet the bot ("hi there!"): it answers with help.
var greetingWords = lexicon.Words("greeting", "alone")

// route picks the command for text: help for empty text, help words,
// greetings, questions about the bot and text with no letters or digits;
// the command named by the first word; otherwise the search command with
// the whole text as its argument. "help"
// followed by words that are not a command name is a search ("help me find
// diffusion papers").
func (t *commandTable) route(text string) (cmd *Command, args string) {
	text = strings.TrimSpace(text)
	first, rest, _ := strings.Cut(text, " ")
	word := strings.ToLower(first)
	rest = strings.TrimSpace(rest)
	if text == "" || !hasWordRune(text) || onlyGreetings(text) || asksAboutBot(text) {
		return t.byName[cmdHelp], ""
	}
	if helpWords[word] {
		next, _, _ := strings.Cut(rest, " ")
		if _, isCmd := t.byName[strings.ToLower(next)]; rest == "" || isCmd {
			return t.byName[cmdHelp], rest
		}
		return t.byName[cmdSearch], text
	}
	if c, ok := t.byName[word]; ok {
		return c, rest
	}
	return t.byName[cmdSearch], text
}

// botQuestionWords make up a question about the bot itself ("what can you
// do?", "how does this work?") with at least one of botWords.
var (
	botQuestionWords = lexicon.Words("bot-question", "about-bot")
	botWords         = lexicon.Words("bot", "about-bot")
)

// asksAboutBot reports whether text asks what the bot is or can do: it gets
// the help, not a search for "you" and "do".
func asksAboutBot(text string) bool { return onlyWordsOf(text, botWords, botQuestionWords) }

// thanksWords make up a message that only thanks the bot or acknowledges
// its answer ("thanks!", "ok cool, thank you"); ackWords alone ("ok") do
// not, they need one of them.
var (
	thanksWords = lexicon.Words("thanks", "alone")
	ackWords    = lexicon.Words("ack", "with-thanks")
)

// onlyThanks reports whether text only thanks the bot: it answers in kind
// instead of searching papers for "thanks".
func onlyThanks(text string) bool { return onlyWordsOf(text, thanksWords, ackWords) }

// onlyWordsOf reports whether text has a word of key and otherwise only
// words of others or greetings (punctuation and case aside).
func onlyWordsOf(text string, key, others map[string]bool) bool {
	found := false
	for _, w := range chatWords(text) {
		switch {
		case w == "" || greetingWords[w]:
		case key[w]:
			found = true
		case !others[w]:
			return false
		}
	}
	return found
}

func onlyGreetings(text string) bool {
	for _, w := range chatWords(text) {
		if !greetingWords[w] {
			return false
		}
	}
	return true
}

// chatWords are text's words lower-cased, without the punctuation around
// them ("Thanks!" is "thanks"; "!!!" is "").
func chatWords(text string) []string {
	words := strings.Fields(text)
	for i, w := range words {
		words[i] = strings.ToLower(strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }))
	}
	return words
}

func hasWordRune(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}
