package bot

import (
	"bufio"
	"cmp"
	_ "embed"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// followIntent is what a follow-up asks of the cards it names.
type followIntent int

const (
	followAsk      followIntent = iota // a question about the named paper
	followAbstract                     // its whole abstract
	followSimilar                      // papers like it
	followCompare                      // the named papers side by side
	followNewer                        // newer papers on the thread's question
)

// followUp is a reply in a thread, understood against the cards shown.
type followUp struct {
	Intent followIntent
	// Cards are the cards named, 1-based in the thread's order; -1 is the
	// last one. Empty when none is named.
	Cards []int
	// This: the reply names a paper without its number ("that paper",
	// "it"); All: every card ("compare them"). Weak: only by "it" or
	// "its", which a new question may hold too.
	This, All, Weak bool
	// Rest is the text without the words that name cards or the intent:
	// the question to answer from the paper.
	Rest string
	// Bare: Rest has only filler words ("anything … on this?"), so an
	// intent that names no card is about the thread ("more like this"),
	// not a new question ("compare diffusion and GANs").
	Bare bool
}

// names reports whether the follow-up names any card.
func (f followUp) names() bool { return len(f.Cards) > 0 || f.This || f.All }

//go:embed followup_words.tsv
var followupWordsTSV string

// followWord is one row of followup_words.tsv.
type followWord struct {
	words []string // the phrase, split into words
	role  string   // "ordinal", "this", "it", "all", "number", an intent, or a list role (listRoles)
	n     int      // for ordinals
}

// followWords are the rows, longest phrase first so that "tell me more"
// wins over "more".
var followWords = func() []followWord {
	var out []followWord
	sc := bufio.NewScanner(strings.NewReader(followupWordsTSV))
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") && !strings.HasPrefix(line, "#\t") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			panic(fmt.Sprintf("followup_words.tsv: %q: want word, role and example", line))
		}
		w := followWord{words: strings.Fields(f[0]), role: f[1]}
		if n, ok := strings.CutPrefix(f[1], "ordinal:"); ok {
			w.role = "ordinal"
			w.n, _ = strconv.Atoi(n)
		}
		out = append(out, w)
	}
	// Longest phrase first, the file's order among equals.
	slices.SortStableFunc(out, func(a, b followWord) int { return cmp.Compare(len(b.words), len(a.words)) })
	return out
}()

// wordsOf are the one-word rows of role: word lists the parse reads
// beside its phrase matching (listRoles).
func wordsOf(role string) map[string]bool {
	m := map[string]bool{}
	for _, w := range followWords {
		if w.role == role && len(w.words) == 1 {
			m[w.words[0]] = true
		}
	}
	return m
}

// listRoles are the roles whose rows are word lists, not phrases that name
// cards or intents: parseFollowUp's phrase loop skips them.
var listRoles = map[string]bool{"filler": true, "ask": true, "joiner": true, "silent": true, "lead": true}

var (
	// fillerWords leave a reply about the thread ("anything newer on this?").
	fillerWords = wordsOf("filler")
	// askWords open a reply that asks something ("show the abstract of 3",
	// "which dataset"), as one ending in "?" does.
	askWords = wordsOf("ask")
	// joinerWords make the bare number before them a card ("1 and 2").
	joinerWords = wordsOf("joiner")
	// silentWords are no words of the question ("the second one").
	silentWords = wordsOf("silent")
	// leadWords may come before the first word that asks ("#2: which").
	leadWords = wordsOf("lead")
	// compareWords are the rows of intent compare; a number cue that is one
	// ("compare 1 and 2", "2 vs 3") asks for a comparison.
	compareWords = wordsOf("compare")
)

// asks reports whether a reply in a thread asks the bot something: it ends
// with "?", opens with a question or request word (after the cards it
// names: "#2: which dataset"), or only names cards ("#2"). People also
// talk to each other in threads ("I think the second one is better"): a
// reply that asks nothing and does not mention the bot gets no answer.
func asks(text string) bool {
	t := strings.TrimSpace(text)
	if strings.HasSuffix(t, "?") {
		return true
	}
	f := parseFollowUp(t)
	if f.names() && strings.TrimSpace(f.Rest) == "" {
		return true
	}
	for _, tok := range followTokens(t) {
		if leadWords[tok] {
			continue
		}
		if _, err := strconv.Atoi(tok); err == nil {
			continue
		}
		if isOrdinal(tok) {
			continue
		}
		return askWords[tok]
	}
	return false
}

// isOrdinal reports whether tok is an ordinal of followup_words.tsv.
func isOrdinal(tok string) bool {
	for _, w := range followWords {
		if w.role == "ordinal" && len(w.words) == 1 && w.words[0] == tok {
			return true
		}
	}
	return false
}

// maxCardNumber is the largest bare number taken for a card ("of 3"):
// larger ones are years and counts.
const maxCardNumber = 50

// parseFollowUp reads a reply in a thread: which cards it names ("the
// first one", "#2", "1 and 2", "that paper"), what it asks of them, and
// the rest of its words. It is pure: text in, roles out.
func parseFollowUp(text string) followUp {
	toks := followTokens(text)
	var f followUp
	intents := map[string]bool{}
	var rest []string
	f.Bare = true
	numberCue := false // the previous token makes a bare number a card
	for i := 0; i < len(toks); {
		t := toks[i]
		if n, err := strconv.Atoi(t); err == nil {
			next := ""
			if i+1 < len(toks) {
				next = toks[i+1]
			}
			if n >= 1 && n <= maxCardNumber && (numberCue || joinerWords[next] || i == 0 && len(toks) == 1) {
				f.Cards = append(f.Cards, n)
				i++
				numberCue = joinerWords[next]
				continue
			}
		}
		matched := false
		for _, w := range followWords {
			if listRoles[w.role] || !hasPhrase(toks[i:], w.words) {
				continue
			}
			switch w.role {
			case "ordinal":
				f.Cards = append(f.Cards, w.n)
			case "this":
				f.This, f.Weak = true, false
			case "it":
				if !f.This {
					f.This, f.Weak = true, true
				}
			case "all":
				f.All = true
			case "number":
				// Only a cue: "of" and "and" are words of the question too.
				if !followNumberFollows(toks, i+len(w.words)) {
					continue
				}
				if compareWords[w.words[0]] {
					intents["compare"] = true
				}
			default:
				intents[w.role] = true
			}
			numberCue = w.role == "number" || w.role == "ordinal"
			i += len(w.words)
			matched = true
			break
		}
		if !matched {
			numberCue = t == "&" // the sign, not the word "and": "1 & 2" but "1 and the 2"
			if !silentWords[t] {
				rest = append(rest, t)
				f.Bare = f.Bare && fillerWords[t]
			}
			i++
		}
	}
	f.Rest = strings.Join(rest, " ")
	if len(f.Cards) > 0 || f.All {
		f.Weak = false
	}
	switch {
	case intents["compare"]:
		f.Intent = followCompare
	case intents["similar"]:
		f.Intent = followSimilar
	case intents["newer"]:
		f.Intent = followNewer
	case intents["abstract"]:
		f.Intent = followAbstract
	}
	return f
}

// followNumberFollows reports whether toks[i] is a card number.
func followNumberFollows(toks []string, i int) bool {
	if i >= len(toks) {
		return false
	}
	n, err := strconv.Atoi(toks[i])
	return err == nil && n >= 1 && n <= maxCardNumber
}

// hasPhrase reports whether toks open with words.
func hasPhrase(toks, words []string) bool {
	return len(toks) >= len(words) && slices.Equal(toks[:len(words)], words)
}

// followTokens lower-cases text and splits it into words, numbers and the
// signs that name cards ("#", "&"): "#2: which dataset?" is "#", "2",
// "which", "dataset".
func followTokens(text string) []string {
	var toks []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			toks = append(toks, cur.String())
			cur.Reset()
		}
	}
	for _, r := range strings.ToLower(text) {
		switch {
		case r == '#' || r == '&':
			flush()
			toks = append(toks, string(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '\'' || r == '’':
			cur.WriteRune(r)
		default:
			flush()
		}
	}
	flush()
	// "1st" and "2nd" stay words; "paper's" is "paper".
	for i, t := range toks {
		t = strings.TrimSuffix(strings.TrimSuffix(t, "'s"), "’s")
		toks[i] = strings.Trim(t, "-'’")
	}
	return toks
}
