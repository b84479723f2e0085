package search

import (
	"strings"
	"unicode"

	"github.com/paperbot/paperbot/search/lexicon"
)

// Requests say in words what is not their topic: who asks and what they are
// doing, where the papers will go ("a related work section on ..."), when
// ("from last year"), a title filter ("with X in the title") or that the
// answer is a number ("how much faster ...?"). These passes read such words
// around the topic; query_question.go lists the single framing words.

// quantityWords after "how" ask for a number: "how much faster", "how many
// parameters", "how well does it do".
var quantityWords = lexicon.Words("quantity", "after-how")

// asksQuantity reports whether s asks how much or how many.
func asksQuantity(s string) bool {
	words := strings.Fields(s)
	for i := 0; i+1 < len(words); i++ {
		if bareWord(words[i]) == "how" && quantityWords[bareWord(words[i+1])] {
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
		if w := bareWord(words[i]); (w == "stand" || w == "stands" || w == "short") && bareWord(words[i+1]) == "for" {
			return true
		}
	}
	return false
}

// askers are who a question asks about when they follow its verb ("how are
// people evaluating code generation", "what do researchers use for ...");
// the question is about what they do.
var askers = lexicon.Words("frame", "after-auxiliary")

var firstPerson = lexicon.Words("context", "before-ing")

var auxiliaries = lexicon.Words("context", "auxiliary")

// withoutAskersAndTimes drops from a question the askers after its verb,
// what the asker is doing ("I'm writing ..."), "point me (to)", "learn
// (more) about", "stand for" and "these days": words of the conversation that papers
// use for other things (the people of a user study, the days of a trial,
// what a model learns).
func withoutAskersAndTimes(text []clause) []clause {
	out := clausesFor(text)
	for i, c := range text {
		if wordsAt(text, i, "point", "me|us") {
			continue // "can someone point me to ...", not point clouds
		}
		if wordsAt(text, i-1, "the|any|some|there|find|get", "code|repo|repository|github|implementation", "for|of") ||
			wordsAt(text, i-2, "the|any|some|there|find|get", "code|repo|repository|github|implementation", "for|of") {
			continue // "where is the code for SepLLM?": its paper, which links the code
		}
		if wordsAt(text, i, "stand|stands|short", "for") || wordsAt(text, i-1, "stand|stands|short", "for") {
			continue // "what does CoMiGS stand for?", "what is DPO short for?": its long form
		}
		if wordsAt(text, i, "learn|read", "about|up") || wordsAt(text, i, "learn|read", "more|up", "about|on") ||
			wordsAt(text, i-1, "learn|read", "more|up", "about|on") {
			continue // "I want to learn (more) about diffusion", "read up on GNNs"
		}
		if i > 0 && !c.phrase && !text[i-1].phrase && !endsClause(text[i-1].text) {
			prev, w := bareWord(text[i-1].text), bareWord(c.text)
			if askers[w] && auxiliaries[prev] || w == "days" && (prev == "these" || prev == "those") ||
				firstPerson[prev] && strings.HasSuffix(w, "ing") {
				continue // "I'm writing ...", "we're building ..."
			}
		}
		out = append(out, c)
	}
	return out
}

// withoutRelatedWork drops "related work" or "related-work" (and
// "section") before what it is on: "related work section on in-context
// learning" asks for papers on in-context learning; "related work
// generation" is a topic.
func withoutRelatedWork(text []clause) []clause {
	for i := range text {
		for _, words := range [][]string{
			{"related", "work", "section", relatedWorkLinks}, {"related", "work", relatedWorkLinks},
			{"related-work", "section", relatedWorkLinks}, {"related-work", relatedWorkLinks},
		} {
			if wordsAt(text, i, words...) {
				return append(text[:i:i], text[i+len(words)-1:]...)
			}
		}
	}
	return text
}

// codeAsks are the phrasings of a request for code. keep is how many of
// their first words stay: "papers" of "papers with code" is a framing word
// its own pass drops.
var codeAsks = []struct {
	keep  int
	words []string
}{
	{1, []string{"papers|paper", "with", "code"}},
	{0, []string{"with", "code|implementation|implementations", "available|released|public"}},
	{0, []string{"with", "open-source|public|released|available", "code|implementation|implementations"}},
	{0, []string{"open-source|opensource", "code|implementation|implementations"}},
	{0, []string{"open", "source", "code|implementation|implementations"}},
}

// codeInWords turns a request for code said in words into has:code:
// "diffusion papers with code", "DPO with code available", "an open-source
// implementation of flash attention". Only these phrasings: "code" alone
// is a topic ("code generation", "LLMs trained with code").
func codeInWords(q *parsedQuery) {
	if q.hasCode != nil {
		return
	}
	for i := range q.text {
		for _, ask := range codeAsks {
			if !wordsAt(q.text, i, ask.words...) {
				continue
			}
			yes := true
			q.hasCode = &yes
			from, to := i+ask.keep, i+len(ask.words)
			if wordsAt(q.text, to, "of|for") {
				to++ // "implementation of X"
			}
			q.text = append(q.text[:from:from], q.text[to:]...)
			return
		}
	}
}

// relatedWorkLinks are the words after "related work" that name its topic.
const relatedWorkLinks = "on|about|for|regarding|of"

// titleInWords turns "<word> in the title" ('the paper with "grokking" in
// its title') into the filter title:<word>, and drops "titled" and
// "called" before a quoted title, which is searched as typed.
func titleInWords(q *parsedQuery) {
	out := clausesFor(q.text)
	for i := 0; i < len(q.text); i++ {
		c := q.text[i]
		if w := bareWord(c.text); !c.phrase && (w == "titled" || w == "called" || w == "entitled") && i+1 < len(q.text) && q.text[i+1].phrase {
			continue
		}
		if !endsClause(c.text) && wordsAt(q.text, i+1, "in", "the|its|their|a", "title|titles") {
			q.fields = append(q.fields, fieldClause{field: fieldTitle, clause: c})
			i += 3
			continue
		}
		out = append(out, c)
	}
	q.text = out
}

// clausesFor returns an empty slice with room for text's clauses: a pass
// keeps some of them, allocating once. Nil stays nil.
func clausesFor(text []clause) []clause {
	if text == nil {
		return nil
	}
	return make([]clause, 0, len(text))
}

// wordsAt reports whether the clauses from text[i] on are the words given,
// each of a set written "a|b", with no punctuation before the last; false
// when text has too few clauses there.
func wordsAt(text []clause, i int, sets ...string) bool {
	if i < 0 || i+len(sets) > len(text) {
		return false
	}
	cs := text[i : i+len(sets)]
	for k, c := range cs {
		if c.phrase || k < len(cs)-1 && endsClause(c.text) || !inSet(sets[k], c.text) {
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
func withoutLinkRequest(text []clause) []clause {
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
func withoutTimeFraming(text []clause) []clause {
	out := clausesFor(text)
	for i := 0; i < len(text); i++ {
		c := text[i]
		if wordsAt(text, i, "last|this|past|recent|next", "year|years|week|weeks|month|months") {
			i++
			continue
		}
		if wordsAt(text, i, "difference|differences", "between") {
			// "difference between LoRA and QLoRA" asks about both, as the
			// question "what is the difference between …?" does.
			i++
			continue
		}
		if wordsAt(text, i, "latest|newest|recent", "first") {
			// "most recent first": an order, not a topic (asksNewest).
			out = append(out, c)
			i++
			continue
		}
		if i+2 < len(text) && wordsAt(text, i, "published|appeared|presented", "in|at") && !text[i+2].phrase && yearWord(bareWord(text[i+2].text)) != 0 {
			continue
		}
		out = append(out, c)
	}
	return out
}
