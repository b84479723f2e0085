package query

import (
	"strings"
	"testing"

	"github.com/paperbot/paperbot/search/lexicon"
)

// botRoles are the lexicon's roles that bot's router reads; bot's tests
// check their examples.
var botRoles = map[Role]bool{"help": true, "greeting": true, "bot-question": true, "bot": true, "thanks": true, "ack": true}

// compoundAnchors are the anchors where a word that asks elsewhere names
// the topic ("beam search"): the parser reads them first (compoundAt), so
// they may give a frame word the topic role.
var compoundAnchors = map[string]bool{"after-topic-word": true, "before-topic-word": true}

// Every row of the lexicon has an example in which the word has the row's
// role, as the parser reads it.
func TestLexiconExamples(t *testing.T) {
	for _, r := range lexicon.Rows() {
		role := Role(r.Role)
		if botRoles[role] {
			continue
		}
		if r.Example == "" {
			t.Errorf("lexicon.tsv:%d: %q has no example", r.Line, r.Word)
			continue
		}
		if err := exampleHasRole(r); err != "" {
			t.Errorf("lexicon.tsv:%d: %q (%s, %s) in %q: %s", r.Line, r.Word, r.Role, r.Anchor, r.Example, err)
		}
	}
}

// exampleHasRole returns what is wrong with r's example, "" if nothing.
// A pattern's role is its focal word's.
func exampleHasRole(r lexicon.Row) string {
	if strings.Contains(r.Word, "[") {
		focal, err := lexicon.Focal(r.Word)
		if err != nil {
			return err.Error()
		}
		for _, w := range focal {
			if wordIndex(r.Example, w) >= 0 {
				r.Word = w
				break
			}
		}
	}
	at := wordIndex(r.Example, r.Word)
	if at < 0 {
		return "the word is not in the example"
	}
	means := r.Anchor[strings.IndexByte(r.Anchor, ':')+1:]
	switch r.Role {
	case "clipping":
		if got := Clipping(r.Word); got != means {
			return "clipped to " + got
		}
		return ""
	case "spelling":
		if got := SpellingVariant(r.Word); got != means {
			return "spelt " + got
		}
		return ""
	}
	q, err := Parse(r.Example)
	if err != nil {
		return err.Error()
	}
	// other is the example with the word replaced by one no rule reads.
	other, _ := Parse(withWord(r.Example, at, "zebra"))
	p := q.parsed
	switch Role(r.Role) {
	case RoleFrame:
		if got := wordRole(q, r.Word); got != RoleFrame {
			return "the word is " + string(got)
		}
	case RoleTopic:
		if got := wordRole(q, r.Word); got != RoleTopic {
			return "the word is " + string(got)
		}
	case "question":
		if !p.Question || other != nil && other.parsed.Question {
			return "the word does not make the example a question"
		}
	case "newest":
		if !p.Newest || wordRole(q, r.Word) != RoleFrame {
			return "the example does not ask for the newest papers without searching the word"
		}
	case "quantity":
		if !p.Quantity || other != nil && other.parsed.Quantity {
			return "the word does not make the example ask how much"
		}
	case RoleFilter:
		filtered := func(q *Query) bool { return q != nil && (q.parsed.HasCode != nil || len(q.parsed.Fields) > 0) }
		if !filtered(q) || filtered(other) || wordRole(q, r.Word) != RoleFrame {
			return "the word does not make a filter of the example: " + q.String()
		}
	case "kind":
		// Searched, weighed as the kind of paper beside a topic (weighKinds).
		if got := wordRole(q, r.Word); got != RoleTopic {
			return "the word is " + string(got)
		}
	case "function":
		// Read against the index (index_search.go) and in abstracts
		// (answer_in.go): the example only has to parse.
	case "shorthand":
		if !strings.Contains(q.String(), means) {
			return "the example does not search " + means
		}
	case "context":
		if r.Anchor == "before-and" {
			// Read as the search groups the words: "and" joins the two
			// compared as "or" does.
			and := wordIndex(r.Example, "and")
			if and < 0 || !ComparedAt(p.Text, and) || other != nil && ComparedAt(other.parsed.Text, and) {
				return `the word does not make "and" join two compared`
			}
			return ""
		}
		// A context word gives another word its role: without it the
		// example parses otherwise.
		if other != nil && other.String() == q.String() {
			return "the example parses the same without the word: " + q.String()
		}
		if other == nil && SimilarTargetOK(r.Example) == SimilarTargetOK(withWord(r.Example, at, "zebra")) {
			return "the example parses the same without the word"
		}
	default:
		return "unknown role"
	}
	return ""
}

// SimilarTargetOK reports whether text asks for papers like another.
func SimilarTargetOK(text string) bool {
	_, ok := SimilarTarget(text)
	return ok
}

// wordIndex is the index among text's words of the first that is word,
// -1 if none; a pattern of several words is found by its first.
func wordIndex(text, word string) int {
	first, _, _ := strings.Cut(word, " ")
	for i, w := range strings.Fields(text) {
		if BareWord(w) == first || strings.ToLower(strings.TrimRight(w, ",;:!?")) == first {
			return i
		}
	}
	return -1
}

// withWord is text with its i-th word replaced by w.
func withWord(text string, i int, w string) string {
	words := strings.Fields(text)
	words[i] = w
	return strings.Join(words, " ")
}

// wordRole is the role of word in q: its first occurrence among q's
// words, frame when the parse dropped it.
func wordRole(q *Query, word string) Role {
	for _, w := range q.Words() {
		if !w.Phrase && (BareWord(w.Text) == word || strings.ToLower(strings.TrimRight(w.Text, ",;:!?")) == word) {
			return w.Role
		}
	}
	return RoleFrame
}

// A word has one role under an anchor, and two roles only under two
// anchors the parser tells apart: a frame word names the topic only
// beside a topic word ("beam search"), which the parser reads first.
func TestLexiconRoles(t *testing.T) {
	type key struct{ word, anchor string }
	seen := map[key]int{}
	roles := map[string]map[Role]string{} // word → role → anchor
	for _, r := range lexicon.Rows() {
		k := key{r.Word, r.Anchor}
		if line, dup := seen[k]; dup {
			t.Errorf("lexicon.tsv:%d: %q under %q again (line %d)", r.Line, r.Word, r.Anchor, line)
		}
		seen[k] = r.Line
		if roles[r.Word] == nil {
			roles[r.Word] = map[Role]string{}
		}
		roles[r.Word][Role(r.Role)] = r.Anchor
	}
	for w, rs := range roles {
		if a, ok := rs[RoleTopic]; ok && rs[RoleFrame] != "" && !compoundAnchors[a] {
			t.Errorf("%q is a topic under %q and a frame under %q: no rule tells them apart", w, a, rs[RoleFrame])
		}
	}
}
