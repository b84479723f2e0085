package query

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/paperbot/paperbot/search/lexicon"
)

// Requests say in words what is not their topic: who asks and what they are
// doing, where the papers will go ("a related work section on ..."), when
// ("from last year"), a title filter ("with X in the title") or that the
// answer is a number ("how much faster ...?"). These passes read such words
// around the topic; question.go lists the single framing words.

// quantityWords after "how" ask for a number: "how much faster", "how many
// parameters", "how well does it do".
var quantityWords = lexicon.Words("quantity", "after-how")

// asksQuantity reports whether s asks how much or how many.
func asksQuantity(s string) bool {
	words := strings.Fields(s)
	for i := 0; i+1 < len(words); i++ {
		if BareWord(words[i]) == "how" && quantityWords[BareWord(words[i+1])] {
			return true
		}
	}
	return false
}

// asksDefinition reports whether s asks what something stands (or is
// short) for.
func asksDefinition(s string) bool {
	words := strings.Fields(s)
	for i := 0; i+1 < len(words); i++ {
		if w := BareWord(words[i]); (w == "stand" || w == "stands" || w == "short") && BareWord(words[i+1]) == "for" {
			return true
		}
	}
	return false
}

// firstPerson before a word in -ing say what the asker is doing ("I'm
// writing …"); auxiliaries open a question ("how do I …", "how are people
// evaluating …").
var (
	firstPerson = lexicon.Words("context", "before-ing")
	auxiliaries = lexicon.Words("context", "auxiliary")
)

// withoutAskersAndTimes drops from a question the askers after its verb,
// what the asker is doing ("I'm writing ..."), "point me (to)", "learn
// (more) about", "stand for" and "these days": words of the conversation that papers
// use for other things (the people of a user study, the days of a trial,
// what a model learns).
func withoutAskersAndTimes(text []Clause) []Clause {
	out := clausesFor(text)
	word := func(j int) (string, bool) { return clauseWord(text, j) }
	for i, c := range text {
		if questionAsides.At(len(text), i, word) {
			continue // "point me to", "the code for", "stand for", "learn more about", "people" of "how are people …", "these days"
		}
		if i > 0 && !c.Phrase && !text[i-1].Phrase && !EndsClause(text[i-1].Text) &&
			firstPerson[BareWord(text[i-1].Text)] && strings.HasSuffix(BareWord(c.Text), "ing") {
			continue // "I'm writing ...", "we're building ..."
		}
		out = append(out, c)
	}
	return out
}

// questionAsides are the words of a question's conversation that
// withoutAskersAndTimes drops (lexicon.tsv, anchor question-aside).
var questionAsides = lexicon.Patterns("frame", "question-aside")

// clauseWord is text[j] as lexicon patterns read it: without the
// punctuation around it ("" for a quoted phrase, which no pattern
// matches), and whether it ends a clause.
func clauseWord(text []Clause, j int) (string, bool) {
	if text[j].Phrase {
		return "", EndsClause(text[j].Text)
	}
	return trimWord(text[j].Text), EndsClause(text[j].Text)
}

// trimWord is w without the punctuation around it: BareWord before
// lower-casing, which the lexicon's matcher does without allocating.
func trimWord(w string) string {
	return strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// withoutRelatedWork drops "related work" or "related-work" (and
// "section") before what it is on: "related work section on in-context
// learning" asks for papers on in-context learning; "related work
// generation" is a topic.
func withoutRelatedWork(text []Clause) []Clause {
	word := func(j int) (string, bool) { return clauseWord(text, j) }
	for i := range text {
		if start, end, ok := relatedWork.Match(len(text), i, word); ok {
			return append(text[:start:start], text[end-1:]...)
		}
	}
	return text
}

// relatedWork is "related work (section)" and the word after it that
// names its topic, which stays (lexicon.tsv, anchor related-work).
var relatedWork = lexicon.Patterns("frame", "related-work")

// codeAsks are the phrasings of a request for code (lexicon.tsv, anchor
// code-ask); the words from the focal one on are the request: "papers" of
// "papers with code" is a framing word its own pass drops.
var codeAsks = lexicon.Patterns("filter", "code-ask")

// codeInWords turns a request for code said in words into has:code:
// "diffusion papers with code", "DPO with code available", "an open-source
// implementation of flash attention". Only these phrasings: "code" alone
// is a topic ("code generation", "LLMs trained with code").
func codeInWords(q *Parsed) {
	if q.HasCode != nil {
		return
	}
	text := q.Text
	word := func(j int) (string, bool) { return clauseWord(text, j) }
	for i := range text {
		if _, to, ok := codeAsks.Match(len(text), i, word); ok {
			yes := true
			q.HasCode = &yes
			if wordsAt(text, to, "of|for") {
				to++ // "implementation of X"
			}
			q.Text = append(text[:i:i], text[to:]...)
			return
		}
	}
}

// titleInWords turns "<word> in the title" ('the paper with "grokking" in
// its title') into the filter title:<word>, and drops "titled" and
// "called" before a quoted title, which is searched as typed.
func titleInWords(q *Parsed) {
	out := clausesFor(q.Text)
	word := func(j int) (string, bool) { return clauseWord(q.Text, j) }
	for i := 0; i < len(q.Text); i++ {
		c := q.Text[i]
		if w := BareWord(c.Text); !c.Phrase && (w == "titled" || w == "called" || w == "entitled") && i+1 < len(q.Text) && q.Text[i+1].Phrase {
			continue
		}
		if !EndsClause(c.Text) && i+1 < len(q.Text) && titleAsks.At(len(q.Text), i+1, word) {
			q.Fields = append(q.Fields, FieldClause{Field: FieldTitle, Clause: c})
			i += 3
			continue
		}
		out = append(out, c)
	}
	q.Text = out
}

// titleAsks say that the word before is in the title (lexicon.tsv, anchor
// title-ask): "in the title", "in its title".
var titleAsks = lexicon.Patterns("filter", "title-ask")

// clausesFor returns an empty slice with room for text's clauses: a pass
// keeps some of them, allocating once. Nil stays nil.
func clausesFor(text []Clause) []Clause {
	if text == nil {
		return nil
	}
	return make([]Clause, 0, len(text))
}

// wordsAt reports whether the clauses from text[i] on are the words given,
// each of a set written "a|b", with no punctuation before the last; false
// when text has too few clauses there.
func wordsAt(text []Clause, i int, sets ...string) bool {
	if i < 0 || i+len(sets) > len(text) {
		return false
	}
	cs := text[i : i+len(sets)]
	for k, c := range cs {
		if c.Phrase || k < len(cs)-1 && EndsClause(c.Text) || !inSet(sets[k], c.Text) {
			return false
		}
	}
	return true
}

// inSet reports whether the typed word w, without the punctuation around
// it, is one of set's words ("a|b"), in any case. It allocates nothing: the
// framing passes run it on every word of every query.
func inSet(set, w string) bool {
	w = strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for set != "" {
		var word string
		word, set, _ = strings.Cut(set, "|")
		if strings.EqualFold(word, w) {
			return true
		}
	}
	return false
}

// withoutLinkRequest drops a request for a link ("link to the DPO paper",
// "the url for ..."): every card has its link. Only the noun opening the
// text or after "the"/"a": "aging links to an older appearance" and "link
// prediction" are topics.
func withoutLinkRequest(text []Clause) []Clause {
	out := clausesFor(text)
	for i := 0; i < len(text); i++ {
		opens := i == 0 || wordsAt(text, i-1, "the|a")
		if opens && wordsAt(text, i, "link|url", "to|for") {
			i++
			continue
		}
		out = append(out, text[i])
	}
	return out
}

// withoutTimeFraming drops words that place a request in time without a
// year to match: "from last year", "in recent years", "next week", the "first" of
// "newest first", and "published" before
// "in 2024" (the year is searched; "published" is in every paper's story).
func withoutTimeFraming(text []Clause) []Clause {
	out := clausesFor(text)
	word := func(j int) (string, bool) { return clauseWord(text, j) }
	for i := 0; i < len(text); i++ {
		c := text[i]
		if _, end, ok := framePairs.Match(len(text), i, word); ok {
			// "from last year", "difference between LoRA and QLoRA" (asks
			// about both, as the question "what is the difference between
			// …?" does).
			i = end - 1
			continue
		}
		if orderWords.At(len(text), i, word) {
			continue // "most recent first": an order, not a topic (asksNewest)
		}
		if i+2 < len(text) && publishedIn.At(len(text), i, word) && !text[i+2].Phrase && YearWord(BareWord(text[i+2].Text)) != 0 {
			continue
		}
		out = append(out, c)
	}
	return out
}

// framePairs, orderWords and publishedIn frame a request in time or as a
// comparison (lexicon.tsv, anchors frame-pair, order and published-in).
var (
	framePairs  = lexicon.Patterns("frame", "frame-pair")
	orderWords  = lexicon.Patterns("frame", "order")
	publishedIn = lexicon.Patterns("frame", "published-in")
)

// YearWord returns the year a typed word names, 0 when none: four digits
// from 1900 to 2099.
func YearWord(w string) int {
	if len(w) != 4 {
		return 0
	}
	y, err := strconv.Atoi(w)
	if err != nil || y < 1900 || y > 2099 {
		return 0
	}
	return y
}

// YearSpanAt reads a span of years said in words at text[i]: "since 2023"
// and "after 2022" are that year (or the next) and later, "before 2020"
// earlier, "between 2017 and 2019" and "from 2017 to 2019" both years and
// those between. n is how many of the years that follow take the span; 0
// when text[i] opens none.
func YearSpanAt(text []Clause, i int) (span YearClause, n int) {
	year := func(k int) int {
		if k >= len(text) || text[k].Phrase {
			return 0
		}
		return YearWord(BareWord(text[k].Text))
	}
	if text[i].Phrase || EndsClause(text[i].Text) {
		return YearClause{}, 0
	}
	y := year(i + 1)
	if y == 0 {
		return YearClause{}, 0
	}
	switch w := BareWord(text[i].Text); w {
	case "since":
		return YearClause{Min: y}, 1
	case "after":
		return YearClause{Min: y + 1}, 1
	case "before":
		return YearClause{Max: y - 1}, 1
	case "between", "from":
		link := "and"
		if w == "from" {
			link = "to"
		}
		if i+3 < len(text) && !text[i+2].Phrase && !EndsClause(text[i+1].Text) && BareWord(text[i+2].Text) == link && year(i+3) >= y {
			return YearClause{Min: y, Max: year(i + 3)}, 2
		}
	}
	return YearClause{}, 0
}
