package query

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/paperbot/paperbot/search/lexicon"
)

// Natural-language questions ("which paper rediscovers the Kramers-Wannier
// duality?") go through the same free-text path as keywords, minus the words
// that only shape the question.

// questionStarts are first words that make a query a question.
var questionStarts = lexicon.Words("question", "first-word")

// botNames address the bot by name at the start of a message, typed
// without Slack's mention markup ("hey paperbot, ...", "@paperbot what
// is ..."): no paper is about the bot.
var botNames = lexicon.Words("frame", "bot-name")

// openingWords is how many of words open a message to the bot rather than
// ask: a greeting and whom it greets ("hey paperbot,", "hi all,", "hello
// team,"), or the bot's name alone.
func openingWords(words []string) int {
	n := 0
	for n+1 < len(words) && opensMessage(words, n) {
		n++
	}
	if n > 0 {
		if len(words) > n+1 && !strings.HasSuffix(words[n-1], ",") && (strings.HasSuffix(words[n], ",") || botNames[BareWord(words[n])]) {
			n++
		}
	} else if len(words) > 1 && botNames[BareWord(words[0])] {
		n = 1
	}
	return n
}

// openingPhrases open a message (lexicon.tsv, anchor opening-phrase): a
// greeting ("ok so what do we have on …", "hi sorry, …"), "so" before a
// question, "quick q" / "dumb question but", "new here", "friendly
// reminder".
var openingPhrases = lexicon.Patterns("frame", "opening-phrase")

// opensMessage reports whether words[i], in a run of such words at the
// start, opens the message (openingPhrases), or is a dash after the
// opener ("friendly reminder - need …").
func opensMessage(words []string, i int) bool {
	if trimWord(words[i]) == "" {
		return i > 0
	}
	return openingPhrases.At(len(words), i, func(j int) (string, bool) { return trimWord(words[j]), false })
}

// chatLabels open a message with a colon to say what it is ("Q: what is
// grokking?", "re: kv cache"); like greetings (openingPhrases), only
// first, since a title's first words end with a colon too ("Mamba:
// linear-time ...").
var chatLabels = lexicon.Words("frame", "label")

// isChatLabel reports whether the typed word w is a chat label with its
// colon.
func isChatLabel(w string) bool {
	return strings.HasSuffix(w, ":") && chatLabels[strings.ToLower(strings.TrimSuffix(w, ":"))]
}

// BareWord is w lower-cased without the punctuation around it.
func BareWord(w string) string {
	w = trimWord(w)
	if len(w) == 1 && 'A' <= w[0] && w[0] <= 'Z' {
		return lowerLetters[w[0]-'A' : w[0]-'A'+1] // no allocation for "A" or "Q"
	}
	return strings.ToLower(w)
}

const lowerLetters = "abcdefghijklmnopqrstuvwxyz"

// isQuestion reports whether s reads as a question rather than keywords.
func isQuestion(s string) bool {
	s = strings.TrimSpace(s)
	if strings.HasSuffix(s, "?") {
		return true
	}
	words := strings.Fields(s)
	words = words[openingWords(words):]
	if len(words) > 1 && isChatLabel(words[0]) {
		words = words[1:]
	}
	request := words
	if len(request) > 2 && requestArticles[BareWord(request[0])] {
		request = request[1:] // "the paper that showed ..."
	}
	if len(request) > 1 && requestNouns[BareWord(request[0])] && requestLinks[BareWord(request[1])] {
		return true // "refs on sparse autoencoders", "papers showing ...", "reading list for ..."
	}
	if len(words) > 1 && BareWord(words[0]) == "working" && BareWord(words[1]) == "on" {
		return true // "working on audio tokenizers, pointers appreciated"
	}
	return len(words) > 0 && questionStarts[BareWord(words[0])]
}

// requestNouns open a request when a linking word follows: "refs on X",
// "work on X", "papers showing X", "papers comparing X and Y". Alone they
// may be a topic ("work stealing", "literature-based discovery").
var requestNouns = lexicon.Words("frame", "before-link")

var requestLinks = lexicon.Words("frame", "after-request")

// requestArticles may open a request before its noun: "the paper that ...",
// "that paper showing ..." (one the asker has read).
var requestArticles = lexicon.Words("context", "before-request")

// metaWords never say what a paper is about: they are dropped from free text
// (quoted phrases keep them).
var metaWords = lexicon.Words("frame", "anywhere")

// recencyWords ask for the newest papers ("latest papers by Sergey Levine",
// "newest GNN papers"): results are ordered by year (Parsed.Newest),
// and, like meta words, they are not searched, no abstract being about
// being recent.
var recencyWords = lexicon.Words("newest", "anywhere")

// newAskers before "new" ask what is new: "what's new in protein
// structure prediction?", "anything new on diffusion LMs?". Alone, "new"
// is a word of the papers ("a new benchmark").
var newAskers = lexicon.Words("context", "before-new")

// asksNewest reports whether text asks for the newest papers: a word of
// recency typed outside quotes, or "what's new".
func asksNewest(text []Clause) bool {
	for i, c := range text {
		if !c.Phrase && recencyWords[BareWord(c.Text)] || whatsNewAt(text, i) {
			return true
		}
	}
	return false
}

// whatsNewAt reports whether text[i] is the "new" of "what's new" or
// "anything new".
func whatsNewAt(text []Clause, i int) bool {
	if text[i].Phrase || BareWord(text[i].Text) != "new" || i == 0 || text[i-1].Phrase {
		return false
	}
	before := BareWord(text[i-1].Text)
	return newAskers[before] || before == "is" && i > 1 && BareWord(text[i-2].Text) == "what"
}

// questionWords are also dropped, but only from questions, where they frame
// the question ("which papers make ... faster", "does any paper propose ...").
var questionWords = lexicon.Words("frame", "question")

// isMetaWord reports whether the typed word w is dropped from the free text.
func isMetaWord(w string, question bool) bool {
	b := BareWord(w)
	return metaWords[b] || recencyWords[b] || (question && questionWords[b]) || IsMagnitude(strings.ToLower(strings.Trim(w, ",;:!?()"))) ||
		asideAbbreviations[b] && !TypedInCapitals(strings.Trim(w, ",;:!?()."))
}

// MetaWordAt reports whether words[i] is a meta word (isMetaWord), unless
// it is part of a name typed in capitals: "Segment Anything" asks for SAM,
// not for segmentation. A capitalised word after another capitalised one
// is a name's; the first word of a message is capitalised anyway ("Any
// papers on …").
func MetaWordAt(words []Clause, i int, question bool) bool {
	if compoundAt(words, i, question) {
		return false // "beam search", "operations research for scheduling"
	}
	if countOfPapers(words, i) || i > 0 && countOfPapers(words, i-1) {
		return true // "5" and "works" of "10 works on kv cache"
	}
	if whatsNewAt(words, i) || firstPaperAt(words, i) || requestAt(words, i) || channelAt(words, i) || listMarkerAt(words, i) {
		return true
	}
	if i > 0 && requestAt(words, i-1) {
		return true // the link of a request: "re" of "anything re: data assimilation"
	}
	if chatAskAt(words, i) {
		return true
	}
	if !isMetaWord(words[i].Text, question) || topicVerbAt(words, i) {
		return false
	}
	return i == 0 || !startsCapital(words[i].Text) || !startsCapital(words[i-1].Text) || isMetaWord(words[i-1].Text, question) ||
		EndsClause(words[i-1].Text) // "… for medical QA. Suggestions?": a new sentence
}

// headNouns are asking words that end a topic's name after one of its
// words: "beam search", "cold start", "decision making", "case study",
// "reparameterization trick", "operations research". Not "anything":
// "Segment Anything" is a name only in capitals (MetaWordAt), since "have
// LLMs learned anything about physics?" asks. modifierNouns
// begin one: "recommendation systems", "reading comprehension", "claim
// verification", "literature review". Dropped there, "what is beam
// search?" searched "beam" alone.
var (
	headNouns     = lexicon.Words("topic", "after-topic-word")
	modifierNouns = lexicon.Words("topic", "before-topic-word")
)

// compoundAt reports whether words[i], an asking word, names the topic
// with the topic word beside it, in the same clause.
func compoundAt(words []Clause, i int, question bool) bool {
	if words[i].Phrase {
		return false
	}
	w := BareWord(words[i].Text)
	if w == "need" && i > 1 && BareWord(words[i-1].Text) == "you" && BareWord(words[i-2].Text) == "all" {
		return true // "is attention all you need?" asks for the titles that say so
	}
	if headNouns[w] && i > 0 && !EndsClause(words[i-1].Text) && topicWordAt(words, i-1, question) {
		return true
	}
	return modifierNouns[w] && i+1 < len(words) && !EndsClause(words[i].Text) && topicWordAt(words, i+1, question)
}

// topicWordAt reports whether words[j] is a word of the topic: a phrase,
// or a word that is neither a stop word nor one that asks.
func topicWordAt(words []Clause, j int, question bool) bool {
	if words[j].Phrase {
		return true
	}
	b := BareWord(words[j].Text)
	return b != "" && !StopWords()[b] && !isMetaWord(words[j].Text, question) && !headNouns[b] && !modifierNouns[b]
}

// chatPhrases are the phrases of chat that only ask (lexicon.tsv, anchor
// chat-phrase): "pull up the …", "any idea who …", "sorry to bug you",
// "share a paper about …".
var chatPhrases = lexicon.Patterns("frame", "chat-phrase")

// chatAskAt reports whether words[i] only asks, in a phrase of chat
// (chatPhrases: "lab" and "space" of "our lab works on protein structure
// prediction, what's new in that space?" too), or is "summary" or "gist" of a paper named after it ("a
// summary of the StealthInk paper", "the gist of the cyclic peptide
// paper"; not "summaries of clinical notes").
func chatAskAt(words []Clause, i int) bool {
	if c := words[i]; !c.Phrase {
		if w := BareWord(c.Text); w == "summary" || w == "summaries" || w == "gist" {
			return i+1 < len(words) && !words[i+1].Phrase && BareWord(words[i+1].Text) == "of" && paperNamedFrom(words, i+2)
		}
	}
	return chatPhrases.At(len(words), i, func(j int) (string, bool) { return clauseWord(words, j) })
}

// paperNamedFrom reports whether the clause from j on names a paper: "the
// … paper", "this work".
func paperNamedFrom(words []Clause, j int) bool {
	for ; j < len(words) && !words[j].Phrase; j++ {
		if w := BareWord(words[j].Text); w == "paper" || w == "papers" || w == "work" && j > 0 && requestArticles[BareWord(words[j-1].Text)] {
			return true
		}
		if EndsClause(words[j].Text) {
			break
		}
	}
	return false
}

// requestAt reports whether words[i] is the noun of a request inside the
// text: "work" of "Kaiming He's work on graphs" (at the start, isQuestion
// reads it).
func requestAt(words []Clause, i int) bool {
	return i+1 < len(words) && !words[i].Phrase && !words[i+1].Phrase && !EndsClause(words[i].Text) &&
		requestNouns[BareWord(words[i].Text)] && requestLinks[BareWord(words[i+1].Text)]
}

// firstPaperAt reports whether words[i] asks for the paper that started a
// topic: "original" or "first" before "paper" ("the original transformer
// paper", "first paper on diffusion models"), no word of the topic.
func firstPaperAt(words []Clause, i int) bool {
	if words[i].Phrase || EndsClause(words[i].Text) {
		return false
	}
	reach := 0
	switch BareWord(words[i].Text) {
	case "original":
		reach = 3 // "the original transformer paper"
	case "first":
		reach = 1 // "first paper on …", not "first order methods paper"
	default:
		return false
	}
	for j := i + 1; j < min(len(words), i+1+reach); j++ {
		if words[j].Phrase {
			return false
		}
		switch BareWord(words[j].Text) {
		case "paper", "papers", "work", "article", "publication":
			return true
		}
		if EndsClause(words[j].Text) {
			return false
		}
	}
	return false
}

// HowToVerbAt reports whether words[i] is the verb of "how do I …", "how
// to …" or "how can we …": what the asker wants to do, which may be no
// paper's word ("how do I grab embeddings from a transformer?" was refused
// for "grab").
func HowToVerbAt(words []Clause, i int) bool {
	if i < 2 || words[i].Phrase || words[i-1].Phrase || words[i-2].Phrase {
		return false
	}
	a, b := BareWord(words[i-2].Text), BareWord(words[i-1].Text)
	switch {
	case a == "how" && b == "to":
		return true
	case b == "i" || b == "we" || b == "you" || b == "one":
		return auxiliaries[a] && i > 2 && BareWord(words[i-3].Text) == "how"
	}
	return false
}

// knowers ask: "does anyone know …", "do you know …", "I know of …".
var knowers = lexicon.Words("context", "before-know")

// topicVerbAt reports whether words[i], a verb that frames questions asked
// by people ("does anyone know …"), has another subject and is the topic:
// "do LLMs know when they don't know?" asks about LLMs' knowing, and found
// LLM papers of every kind.
func topicVerbAt(words []Clause, i int) bool {
	switch BareWord(words[i].Text) {
	case "know", "knows":
	default:
		return false
	}
	return i > 0 && !knowers[BareWord(words[i-1].Text)] && !(i > 1 && knowers[BareWord(words[i-2].Text)])
}

// countOfPapers reports whether words[i] is a number that says how many
// papers are wanted ("give me 5 papers on world models"): no topic. After
// a name it is the name's version ("GPT 4 papers", "find Llama 3 papers").
func countOfPapers(words []Clause, i int) bool {
	if i+1 >= len(words) || words[i].Phrase || words[i+1].Phrase || !requestNouns[BareWord(words[i+1].Text)] {
		return false
	}
	if versionAt(words, i) {
		return false
	}
	n, err := strconv.Atoi(words[i].Text)
	return err == nil && n > 0 && n < 100
}

// versionAt reports whether the number words[i] follows a name and is its
// version ("GPT 4", "Llama 2."): the name is typed in capitals, or
// capitalised inside a sentence.
func versionAt(words []Clause, i int) bool {
	if i == 0 || words[i-1].Phrase || EndsClause(words[i-1].Text) {
		return false
	}
	name := words[i-1].Text
	return TypedInCapitals(name) || i > 1 && startsCapital(name) && !EndsClause(words[i-2].Text)
}

// startsCapital reports whether w opens with a capital letter.
func startsCapital(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}

// asideAbbreviations introduce an example or an aside ("optical music
// recognition, i.e. sheet music to MIDI", "incl. how hard it is"):
// abstracts write them everywhere, so as query words they only reward
// papers that also give examples. In capitals they may be a topic (ETC,
// the electron transport chain).
var asideAbbreviations = lexicon.Words("frame", "lowercase")

// IsMagnitude reports whether w is a factor such as "100x" or "2.5×": in
// "100x faster diffusion sampling" it says how much, and a paper's "100x
// faster inference" on another topic is no answer.
func IsMagnitude(w string) bool {
	n := strings.TrimSuffix(strings.TrimSuffix(w, "x"), "×")
	if n == w || n == "" {
		return false
	}
	for _, r := range n {
		if !unicode.IsDigit(r) && r != '.' {
			return false
		}
	}
	return true
}

// spokenExclusionWords are the words after which a request names what it
// does not want ("... but not for images", "excluding image generation").
var spokenExclusionWords = lexicon.Words("context", "before-exclusion")

// contrastAt reports whether text[i] and text[i+1] set what follows aside:
// "other than". Not "rather than" or "instead of": there the paper does
// one instead of the other, and says both ("… a denoising diffusion loss
// instead of plain MSE"); leaving them out lost TL;DR answers on train.
func contrastAt(text []Clause, i int) bool {
	if i+2 >= len(text) || text[i+1].Phrase || EndsClause(text[i+1].Text) {
		return false
	}
	return BareWord(text[i].Text) == "other" && strings.EqualFold(text[i+1].Text, "than")
}

// setAsideEnd is the end of what "other than" sets aside from start: up to
// three words, ending at punctuation or where the sentence goes on ("…
// other than GCN work for molecules").
func setAsideEnd(text []Clause, start int) int {
	k := start
	for k < len(text) && k-start < 3 {
		if w := BareWord(text[k].Text); !text[k].Phrase && (spokenStopWords[w] && w != "the" && w != "any" || setAsideStops[w]) {
			break
		}
		k++
		if EndsClause(text[k-1].Text) {
			break
		}
	}
	return k
}

// setAsideStops go on with the sentence after what is set aside.
var setAsideStops = lexicon.Words("context", "after-aside")

// spokenStopWords may open what follows "but not" without being part of it.
var spokenStopWords = lexicon.Words("context", "after-but-not")

// maxSpokenExclusion bounds the words an exclusion in words takes: the
// rest of a long sentence is no longer what to leave out.
const maxSpokenExclusion = 4

// spokenExclusions moves what "but not", "excluding" or "except" name, up
// to the next punctuation, and the word or phrase after a capital "NOT",
// from text to exclude, as -"..." would: asked for
// "diffusion models but not for images", paperbot had ranked image papers
// first, matching the very word the user ruled out.
func spokenExclusions(text, exclude []Clause) ([]Clause, []Clause) {
	out := clausesFor(text)
	for i := 0; i < len(text); i++ {
		c := text[i]
		start := -1
		switch w := BareWord(c.Text); {
		case c.Phrase || EndsClause(c.Text):
		case w == "but" && i+1 < len(text) && !text[i+1].Phrase && strings.ToLower(text[i+1].Text) == "not":
			start = i + 2
		case spokenExclusionWords[w]:
			start = i + 1
		case relativeWords[w] && negationAt(text, i+1) > 0:
			// "image generation that isn't based on diffusion" ranked
			// diffusion papers first.
			start = i + 1 + negationAt(text, i+1)
		case c.Text == "not" && negationAt(text, i) > 0:
			start = i + negationAt(text, i) // "GANs not based on CNNs"
		case strings.EqualFold(c.Text, "(not"):
			// An aside: "papers about molecules (not proteins)" listed
			// protein papers first, matching the word ruled out. It is
			// not searched, and not left out either: papers on molecules
			// name the proteins they bind, and "heavy-tailed noise (not
			// sub-Gaussian)" is answered by papers that contrast the two.
			if _, end, ok := excludedSpan(text, i+1); ok {
				i = end - 1
				continue
			}
		case contrastAt(text, i):
			// "graph neural networks other than GCN": what is set aside,
			// as in "(not …)", is not searched (it ranked GCN papers
			// first) nor left out.
			if end := setAsideEnd(text, i+2); end > i+2 {
				i = end - 1
				continue
			}
		case c.Text == "NOT" && i+1 < len(text) && text[i+1].Text != "NOT":
			// Boolean search as in Scholar or PubMed: "transformers NOT
			// vision" leaves out the next word or phrase, as -vision does.
			// Only in capitals: "methods that do not need labels" is text.
			exclude = append(exclude, text[i+1])
			i++
			continue
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

// relativeWords open a clause that may say what the papers are not.
var relativeWords = lexicon.Words("context", "before-negation")

// negationAt is how many words of text at i say "not based on" ("isn't
// based on", "are not based on"), 0 when they do not. Other negations
// stay text: papers on methods that "don't use attention" or "don't need
// labels" say "attention" and "labels", and "tokens that aren't needed"
// asks for what is not needed.
func negationAt(text []Clause, i int) int {
	word := func(j int) string {
		if j >= len(text) || text[j].Phrase || j > i && EndsClause(text[j-1].Text) {
			return ""
		}
		return strings.ReplaceAll(BareWord(text[j].Text), "’", "'")
	}
	n := 0
	switch word(i) {
	case "isn't", "isnt", "aren't", "arent", "not":
		n = 1
	case "is", "are":
		if word(i+1) != "not" {
			return 0
		}
		n = 2
	default:
		return 0
	}
	if word(i+n) != "based" || word(i+n+1) != "on" {
		return 0
	}
	return n + 2
}

// excludedSpan reads what an exclusion in words names from text[start:]:
// a few words (after "for", "the" ...) up to punctuation. end is the index
// after it; ok is false when there is none, or more than
// maxSpokenExclusion words run on without punctuation.
func excludedSpan(text []Clause, start int) (what Clause, end int, ok bool) {
	for start < len(text) && !text[start].Phrase && spokenStopWords[BareWord(text[start].Text)] && !EndsClause(text[start].Text) {
		start++
	}
	var words []string
	for end = start; end < len(text) && !text[end].Phrase; end++ {
		if len(words) == maxSpokenExclusion {
			return Clause{}, 0, false
		}
		if w := strings.TrimRight(text[end].Text, ",.;:!?)"); w != "" {
			words = append(words, w)
		}
		if EndsClause(text[end].Text) || strings.HasSuffix(text[end].Text, ")") {
			end++
			break
		}
	}
	if len(words) == 0 {
		return Clause{}, 0, false
	}
	return Clause{Text: strings.Join(words, " "), Phrase: len(words) > 1}, end, true
}

// EndsClause reports whether a typed word ends a clause of the sentence.
func EndsClause(w string) bool {
	return strings.ContainsAny(w[len(w)-1:], ",.;:!?")
}

// openingClauses is openingWords of the typed words q.text opens with.
func openingClauses(text []Clause) int {
	var words []string
	for _, c := range text {
		if c.Phrase {
			break
		}
		words = append(words, c.Text)
	}
	if len(words) < len(text) {
		words = append(words, "") // a phrase follows: the message goes on
	}
	return openingWords(words)
}

// AskedCount returns how many papers q asks for ("give me 3 papers on world
// models": 3), 0 when it names no count: the page the asker expects.
func (q *Query) AskedCount() int {
	for i, c := range q.parsed.Text {
		if countOfPapers(q.parsed.Text, i) {
			n, _ := strconv.Atoi(c.Text)
			return n
		}
	}
	return 0
}

// channelAt reports whether words[i] names a Slack channel ("#ml-reading",
// as the bot reads a channel link): where to post, not what about. "diffusion
// models #ml-reading" matched papers on "ML" and lip "reading".
func channelAt(words []Clause, i int) bool {
	w := words[i].Text
	if words[i].Phrase || len(w) < 2 || w[0] != '#' {
		return false
	}
	for _, r := range w[1:] {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false // Slack channel names are lower case
		}
	}
	return true
}

// listMarkerAt reports whether words[i] numbers an item of a list typed in
// the message ("1. kv cache compression 2. speculative decoding", "(2)"):
// no topic. After a name it ends a sentence with the name's version
// ("… Llama 2. It …").
func listMarkerAt(words []Clause, i int) bool {
	if words[i].Phrase || i+1 >= len(words) {
		return false
	}
	w := strings.TrimPrefix(words[i].Text, "(")
	if len(w) < 2 || len(w) > 3 || (w[len(w)-1] != '.' && w[len(w)-1] != ')') {
		return false
	}
	for _, r := range w[:len(w)-1] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return !versionAt(words, i)
}

// TypedInCapitals reports whether w is an acronym typed in capitals, two
// letters or more, maybe with a plural s ("CLIP", "GANs").
func TypedInCapitals(w string) bool {
	w = strings.TrimSuffix(w, "s")
	letters := 0
	for _, r := range w {
		switch {
		case 'A' <= r && r <= 'Z':
			letters++
		case '0' <= r && r <= '9':
		default:
			return false
		}
	}
	return letters >= 2
}

// comparingWords ask to compare what follows: "compare SepLLM and
// LaCache" asks for either paper, as "SepLLM vs LaCache" does.
var comparingWords = lexicon.Words("context", "before-and")

// ComparedAt reports whether the "and" at i joins two words to compare:
// "compare SepLLM and LaCache", "the difference between LoRA and QLoRA";
// not "the difference in oxygen uptake between black and white youth",
// a claim about both.
func ComparedAt(words []Clause, i int) bool {
	word := func(j int) string {
		if j < 0 || words[j].Phrase {
			return ""
		}
		return BareWord(words[j].Text)
	}
	return comparingWords[word(i-2)] || word(i-2) == "between" && comparingWords[word(i-3)]
}
