package search

import (
	"slices"
	"strings"
	"unicode"
)

// Natural-language questions ("which paper rediscovers the Kramers-Wannier
// duality?") go through the same free-text path as keywords, minus the words
// that only shape the question.

// questionStarts are first words that make a query a question.
var questionStarts = map[string]bool{
	"which": true, "what": true, "who": true, "whom": true, "whose": true, "how": true,
	"why": true, "where": true, "when": true, "is": true, "are": true, "does": true,
	"do": true, "did": true, "can": true, "could": true, "any": true, "find": true,
	"show": true, "list": true, "give": true, "tell": true, "has": true, "have": true,
	"recommend": true, "suggest": true,
	// Requests and greetings: "I'm looking for ...", "hi! any work on ...".
	"i": true, "i'm": true, "im": true, "we": true, "we're": true, "looking": true,
	"searching": true, "need": true, "want": true, "please": true,
	// Imperatives: "explain flash attention", "compare DPO and PPO".
	"explain": true, "describe": true, "summarize": true, "summarise": true, "compare": true,
	"search": true,
	// Asking for the best or the newest: "top papers on LLM reasoning".
	"top": true, "good": true, "best": true, "latest": true, "recent": true, "classic": true,
	"seminal": true, "influential": true, "popular": true, "trending": true,
	"what's": true, "whats": true, "who's": true, "how's": true, "where's": true,
}

// greetings open a message to the bot; only as its first word, since "hi"
// is also a word of the papers ("Ly6C hi monocytes").
var greetings = map[string]bool{"hi": true, "hello": true, "hey": true}

// bareWord is w lower-cased without the punctuation around it.
func bareWord(w string) string {
	return strings.ToLower(strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }))
}

// isQuestion reports whether s reads as a question rather than keywords.
func isQuestion(s string) bool {
	s = strings.TrimSpace(s)
	if strings.HasSuffix(s, "?") {
		return true
	}
	words := strings.Fields(s)
	if len(words) > 1 && greetings[bareWord(words[0])] {
		words = words[1:]
	}
	if len(words) > 1 && requestNouns[bareWord(words[0])] && requestLinks[bareWord(words[1])] {
		return true // "refs on sparse autoencoders", "papers showing ..."
	}
	return len(words) > 0 && questionStarts[bareWord(words[0])]
}

// quantityWords after "how" ask for a number: "how much faster", "how many
// parameters", "how well does it do".
var quantityWords = map[string]bool{"much": true, "many": true, "fast": true, "large": true,
	"big": true, "small": true, "long": true, "often": true, "well": true, "accurate": true,
	"quickly": true, "far": true}

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

// requestNouns open a request when a linking word follows: "refs on X",
// "work on X", "papers showing X". Alone they may be a topic ("work
// stealing", "literature-based discovery").
var requestNouns = map[string]bool{
	"paper": true, "papers": true, "article": true, "articles": true, "work": true,
	"works": true, "refs": true, "ref": true, "references": true, "reading": true,
	"readings": true, "literature": true, "pointers": true, "resources": true,
	"anything": true, "something": true, "stuff": true, "research": true,
}

var requestLinks = map[string]bool{
	"on": true, "about": true, "for": true, "regarding": true, "re": true, "that": true,
	"which": true, "where": true, "showing": true, "proving": true, "proposing": true,
}

// metaWords never say what a paper is about: they are dropped from free text
// (quoted phrases keep them).
var metaWords = map[string]bool{
	"which": true, "what": true, "who": true, "whom": true, "whose": true, "where": true,
	"when": true, "why": true, "how": true, "any": true, "anything": true, "anyone": true,
	"paper": true, "papers": true, "article": true, "articles": true, "publication": true,
	"publications": true, "please": true, "find": true, "show": true, "list": true,
	"tell": true, "give": true, "me": true, "there": true, "whether": true, "also": true,
	"via": true, "such": true, "like": true, "kind": true, "what's": true, "whats": true,
	"who's": true, "how's": true, "where's": true,
	// "a good intro to normalizing flows" asks for the topic explained.
	"intro": true, "introduction": true,
	// "RNNs vs transformers" asks about both, not about titles with "vs".
	"vs": true, "versus": true,
	// Thanks: Slack messages are written to people.
	"thanks": true, "thank": true, "thx": true,
	"pls": true, "plz": true, "cheers": true, "folks": true, "guys": true, "everyone": true,
	// Asking for something to cite or a summary: "refs on ...", "tl;dr of ...".
	"refs": true, "ref": true, "tl;dr": true, "tldr": true,
	"ideally": true, "preferably": true,
	// "pros and cons of sparse attention", "tips for training GANs".
	"pros": true, "cons": true, "tips": true,
}

// questionWords are also dropped, but only from questions, where they frame
// the question ("which papers make ... faster", "does any paper propose ...").
var questionWords = map[string]bool{
	"propose": true, "proposes": true, "proposed": true, "present": true, "presents": true,
	"introduce": true, "introduces": true, "study": true, "studies": true, "studied": true,
	"describe": true, "describes": true, "discuss": true, "discusses": true, "make": true,
	"makes": true, "making": true, "use": true, "uses": true, "using": true, "get": true,
	"gets": true, "talk": true, "talks": true, "mention": true, "mentions": true,
	"exist": true, "exists": true, "know": true, "looking": true, "look": true,
	"want": true, "need": true, "work": true, "works": true, "someone": true,
	"something": true, "way": true, "ways": true, "explain": true, "explains": true,
	"deal": true, "deals": true, "try": true, "tries": true, "shows": true,
	"publish": true, "publishes": true, "published": true, "write": true, "writes": true,
	"wrote": true, "written": true, "authored": true, "can": true, "could": true,
	"would": true, "should": true, "might": true, "recommend": true, "suggest": true,
	"working": true, "searching": true, "search": true, "summarize": true, "summarise": true,
	"recent": true, "recently": true, "latest": true, "newest": true,
	// Comparisons and judgements frame the question ("is X better than Y?",
	// "does X help Y?"); abstracts use them in every field ("to the best of
	// our knowledge"), so matching them ranks boilerplate first.
	"better": true, "best": true, "worse": true, "worst": true, "good": true,
	"help": true, "helps": true, "improve": true, "improves": true,
	"compare": true, "compares": true, "compared": true, "comparing": true,
	"comparison": true, "ones": true,
	// Asking for what is new or important: "any new work on mamba?",
	// "what's hot in RL right now", "most cited papers on transformers".
	"new": true, "hot": true, "trending": true, "popular": true, "influential": true,
	"important": true, "seminal": true, "classic": true, "famous": true, "cited": true,
	"top": true, "right": true, "now": true, "nowadays": true, "currently": true,
	"interesting": true, "cool": true, "nice": true, "great": true,
	// What to read or cite: "what should I cite for flash attention?".
	"cite": true, "citing": true, "read": true, "reading": true, "readings": true,
	"references": true, "pointers": true, "literature": true, "resources": true,
	"research": true, "stuff": true,
	// Hedges: "is in-context learning just gradient descent?", "ideally 2024".
	"just": true, "really": true, "actually": true, "maybe": true, "possibly": true, "lately": true,
	"showing": true, "showed": true, "shown": true, "proposing": true,
	// "theorem proving" is a topic: "proving" only opens a request.
	"used": true, "choose": true, "choosing": true,
	// "what's the difference between GCN and GAT?", "how much data ...",
	// "is batch norm still needed in transformers".
	"difference": true, "differences": true, "much": true, "still": true, "needed": true,
	// "who has worked on ...", "a good reference for ...", "follow-ups to ...".
	"worked": true, "reference": true, "follow-up": true, "follow-ups": true,
	"followup": true, "followups": true,
}

// askers are who a question asks about when they follow its verb ("how are
// people evaluating code generation", "what do researchers use for ...");
// the question is about what they do.
var askers = map[string]bool{"people": true, "researchers": true, "practitioners": true, "others": true}

var firstPerson = map[string]bool{"i'm": true, "im": true, "i’m": true, "we're": true, "we’re": true, "am": true}

var auxiliaries = map[string]bool{
	"do": true, "does": true, "did": true, "are": true, "is": true, "were": true, "was": true,
	"have": true, "has": true, "would": true, "should": true, "could": true, "can": true, "will": true,
}

// withoutAskersAndTimes drops from a question the askers after its verb,
// "point me (to)" and "these days": words of the conversation that papers use for other things
// (the people of a user study, the days of a trial).
func withoutAskersAndTimes(text []clause) []clause {
	out := text[:0:0]
	for i, c := range text {
		if !c.phrase && bareWord(c.text) == "point" && i+1 < len(text) && !text[i+1].phrase && (bareWord(text[i+1].text) == "me" || bareWord(text[i+1].text) == "us") {
			continue // "can someone point me to ...", not point clouds
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

// isMetaWord reports whether the typed word w is dropped from the free text.
func isMetaWord(w string, question bool) bool {
	w = bareWord(w)
	return metaWords[w] || (question && questionWords[w])
}

// withoutRelatedWork drops "related work" (and "section") before what it is
// on: "related work section on in-context learning" asks for papers on
// in-context learning; "related work generation" is a topic.
func withoutRelatedWork(text []clause) []clause {
	for i := 0; i+2 < len(text); i++ {
		if text[i].phrase || text[i+1].phrase || bareWord(text[i].text) != "related" || bareWord(text[i+1].text) != "work" || endsClause(text[i].text) {
			continue
		}
		n := 2
		if !endsClause(text[i+1].text) && !text[i+2].phrase && bareWord(text[i+2].text) == "section" {
			n = 3
		}
		if i+n < len(text) && !text[i+n-1].phrase && !endsClause(text[i+n-1].text) && relatedWorkLinks[bareWord(text[i+n].text)] {
			return append(text[:i:i], text[i+n:]...)
		}
	}
	return text
}

// titleInWords turns "<word> in the title" ('the paper with "grokking" in
// its title') into the filter title:<word>, and drops "titled" and
// "called" before a quoted title, which is searched as typed.
func titleInWords(q *parsedQuery) {
	out := q.text[:0:0]
	for i := 0; i < len(q.text); i++ {
		c := q.text[i]
		if w := bareWord(c.text); !c.phrase && (w == "titled" || w == "called" || w == "entitled") && i+1 < len(q.text) && q.text[i+1].phrase {
			continue
		}
		if i+3 < len(q.text) && !endsClause(c.text) && isWords(q.text[i+1:i+4], "in", "the|its|their|a", "title|titles") {
			q.fields = append(q.fields, fieldClause{field: fieldTitle, clause: c})
			i += 3
			continue
		}
		out = append(out, c)
	}
	q.text = out
}

// isWords reports whether the clauses are the words given, each of a set
// written "a|b", with no punctuation before the last.
func isWords(cs []clause, sets ...string) bool {
	for k, c := range cs {
		if c.phrase || k < len(cs)-1 && endsClause(c.text) || !slices.Contains(strings.Split(sets[k], "|"), bareWord(c.text)) {
			return false
		}
	}
	return true
}

// withoutTimeFraming drops words that place a request in time without a
// year to match: "from last year", "in recent years", and "published" before
// "in 2024" (the year is searched; "published" is in every paper's story).
func withoutTimeFraming(text []clause) []clause {
	out := text[:0:0]
	for i := 0; i < len(text); i++ {
		c := text[i]
		if i+1 < len(text) && isWords(text[i:i+2], "last|this|past|recent", "year|years") {
			i++
			continue
		}
		if i+2 < len(text) && isWords(text[i:i+2], "published|appeared|presented", "in|at") && !text[i+2].phrase && yearWord(bareWord(text[i+2].text)) != 0 {
			continue
		}
		out = append(out, c)
	}
	return out
}

var relatedWorkLinks = map[string]bool{"on": true, "about": true, "for": true, "regarding": true, "of": true}

// spokenExclusionWords are the words after which a request names what it
// does not want ("... but not for images", "excluding image generation").
var spokenExclusionWords = map[string]bool{"excluding": true, "except": true}

// spokenStopWords may open what follows "but not" without being part of it.
var spokenStopWords = map[string]bool{"for": true, "on": true, "in": true, "about": true, "the": true, "of": true, "with": true, "any": true}

// maxSpokenExclusion bounds the words an exclusion in words takes: the
// rest of a long sentence is no longer what to leave out.
const maxSpokenExclusion = 4

// spokenExclusions moves what "but not", "excluding" or "except" name, up
// to the next punctuation, from text to exclude, as -"..." would: asked for
// "diffusion models but not for images", paperbot had ranked image papers
// first, matching the very word the user ruled out.
func spokenExclusions(text, exclude []clause) ([]clause, []clause) {
	out := text[:0:0]
	for i := 0; i < len(text); i++ {
		c := text[i]
		start := -1
		switch w := bareWord(c.text); {
		case c.phrase || endsClause(c.text):
		case w == "but" && i+1 < len(text) && !text[i+1].phrase && strings.ToLower(text[i+1].text) == "not":
			start = i + 2
		case spokenExclusionWords[w]:
			start = i + 1
		}
		if start < 0 {
			out = append(out, c)
			continue
		}
		if what, end, ok := excludedSpan(text, start); ok {
			exclude = append(exclude, what)
			i = end - 1
			continue
		}
		out = append(out, c) // nothing to leave out, or too long: kept as typed
	}
	return out, exclude
}

// excludedSpan reads what an exclusion in words names from text[start:]:
// a few words (after "for", "the" ...) up to punctuation. end is the index
// after it; ok is false when there is none, or more than
// maxSpokenExclusion words run on without punctuation.
func excludedSpan(text []clause, start int) (what clause, end int, ok bool) {
	for start < len(text) && !text[start].phrase && spokenStopWords[bareWord(text[start].text)] && !endsClause(text[start].text) {
		start++
	}
	var words []string
	for end = start; end < len(text) && !text[end].phrase; end++ {
		if len(words) == maxSpokenExclusion {
			return clause{}, 0, false
		}
		if w := strings.TrimRight(text[end].text, ",.;:!?"); w != "" {
			words = append(words, w)
		}
		if endsClause(text[end].text) {
			end++
			break
		}
	}
	if len(words) == 0 {
		return clause{}, 0, false
	}
	return clause{text: strings.Join(words, " "), phrase: len(words) > 1}, end, true
}

// endsClause reports whether a typed word ends a clause of the sentence.
func endsClause(w string) bool {
	return strings.ContainsAny(w[len(w)-1:], ",.;:!?")
}
