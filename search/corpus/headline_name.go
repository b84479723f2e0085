package corpus

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

var (
	// leadingWords are skipped before a name: "we propose a novel X".
	leadingWords = map[string]bool{
		"a": true, "an": true, "the": true, "novel": true, "new": true, "simple": true,
		"general": true, "unified": true, "principled": true, "our": true, "lightweight": true,
		"efficient": true, "effective": true, "scalable": true, "generic": true,
	}
	// nameNouns may trail a name: "the Molecular Stitching (MolStitch) framework".
	nameNouns = map[string]bool{
		"framework": true, "model": true, "method": true, "module": true, "algorithm": true,
		"approach": true, "network": true, "benchmark": true, "system": true, "architecture": true,
		"dataset": true, "technique": true, "strategy": true, "mechanism": true, "paradigm": true,
	}
)

// nameAt reads a method name at the start of s, after optional articles and
// adjectives: a distinctive token (EQ-VAE, LaCache, HyMN) with an optional
// parenthesis, a phrase ending in a parenthesised acronym ("Reaction Graph
// (RG)"), or a capitalised phrase followed by ", a" ("Stochastic Soft
// Prompting, a"). It returns the name and the text after it.
func nameAt(s string) (name, after string, ok bool) {
	words := strings.Fields(s)
	skip := 0
	for skip < len(words) && leadingWords[strings.ToLower(words[skip])] {
		skip++
	}
	// "a learnable NeuroTree framework": up to two more lower-case words
	// may precede a distinctive name.
	for extra := 1; extra <= 2 && skip+extra < len(words); extra++ {
		if w := words[skip+extra-1]; strings.ToLower(w) != w || strings.ContainsAny(w, ",.;:()") {
			break
		}
		if isDistinctive(strings.TrimRight(words[skip+extra], ",.:;")) {
			skip += extra
			break
		}
	}
	rest := s
	for range skip {
		rest = strings.TrimLeft(rest, " ")
		rest = rest[strings.IndexByte(rest, ' ')+1:]
	}
	rest = strings.TrimLeft(rest, " ")
	if rest == "" {
		return "", "", false
	}
	if n, a, ok := phraseWithAcronym(rest); ok {
		return n, a, true
	}
	first := words[min(skip, len(words)-1)]
	tok := strings.TrimRight(first, ",.:;")
	if isDistinctive(tok) && strings.HasPrefix(rest, tok) {
		name, after = tok, rest[len(tok):]
		if strings.HasPrefix(after, " (") {
			if end := strings.IndexByte(after, ')'); end > 0 && end < 100 && !strings.Contains(after[:end], "(e.g") {
				name, after = name+after[:end+1], after[end+1:]
			}
		}
		after = trailingNoun(&name, after)
		if endsName(after) {
			return name, dropHere(after), true
		}
	}
	if n, a, ok := capitalisedPhrase(rest); ok {
		return n, a, true
	}
	return "", "", false
}

// endsName reports whether the text after a candidate name shows the name
// is complete: punctuation, the end, or a function word ("SepLLM to
// accelerate ..."), not a noun continuing a phrase ("KV cache ...").
func endsName(after string) bool {
	if after == "" || strings.IndexByte(",.;:)", after[0]) >= 0 || strings.HasPrefix(after, " (") ||
		strings.HasPrefix(after, " —") || strings.HasPrefix(after, " -- ") {
		return true
	}
	w, _, _ := strings.Cut(strings.TrimPrefix(after, " "), " ")
	return nameFollowers[strings.TrimRight(w, ",.;:")]
}

var nameFollowers = map[string]bool{
	"to": true, "that": true, "which": true, "for": true, "with": true, "as": true, "in": true,
	"by": true, "is": true, "and": true, "on": true, "based": true, "using": true, "via": true,
	"here": true, "herein": true, "from": true, "leveraging": true, "where": true, "whose": true,
}

// dropHere removes "in this paper" and the like that separate a name from
// its description.
func dropHere(after string) string {
	for _, p := range []string{" in this paper", " in this work", " in this study", " in this article", " here", " herein"} {
		if rest, ok := strings.CutPrefix(after, p); ok {
			return rest
		}
	}
	return after
}

// phraseWithAcronym reads up to 12 words then "(ACRO)" at the start of s.
func phraseWithAcronym(s string) (name, after string, ok bool) {
	open := strings.Index(s, " (")
	if open <= 0 || open > 120 || strings.ContainsAny(s[:open], ",.;:()") {
		return "", "", false
	}
	end := strings.IndexByte(s[open:], ')')
	if end < 0 {
		return "", "", false
	}
	end += open
	acro := s[open+2 : end]
	if !isDistinctive(acro) || len(strings.Fields(s[:open])) > 12 || !abbreviates(acro, s[:open]) {
		return "", "", false
	}
	name = s[:end+1]
	return name, dropHere(trailingNoun(&name, s[end+1:])), true
}

// abbreviates reports whether acro can stand for phrase: both start with the
// same letter and acro's capitals appear in order in phrase ("DiTAR" for
// "Diffusion Transformer Autoregressive Modeling", not "DOF" for "approach
// for discovering effective degrees of freedom").
func abbreviates(acro, phrase string) bool {
	a, _ := utf8.DecodeRuneInString(acro)
	p, _ := utf8.DecodeRuneInString(phrase)
	if unicode.ToLower(a) != unicode.ToLower(p) {
		return false
	}
	rest := strings.ToLower(phrase)
	for _, r := range acro {
		if !unicode.IsUpper(r) {
			continue
		}
		i := strings.IndexRune(rest, unicode.ToLower(r))
		if i < 0 {
			return false
		}
		rest = rest[i+utf8.RuneLen(unicode.ToLower(r)):]
	}
	return true
}

// capitalisedPhrase reads 2 to 6 capitalised words followed by ", a".
func capitalisedPhrase(s string) (name, after string, ok bool) {
	comma := strings.Index(s, ", ")
	if comma <= 0 || comma > 80 {
		return "", "", false
	}
	words := strings.Fields(s[:comma])
	if len(words) < 2 || len(words) > 6 {
		return "", "", false
	}
	for _, w := range words {
		r, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsUpper(r) {
			return "", "", false
		}
	}
	if _, ok := appositive(s[comma:]); !ok {
		return "", "", false
	}
	return s[:comma], s[comma:], true
}

// nameBefore reads a name ending s: "... a novel Brain Quadratic Network
// (BQN)" gives "Brain Quadratic Network (BQN)".
func nameBefore(s string) (string, bool) {
	s = strings.TrimRight(s, " ")
	if strings.HasSuffix(s, ")") {
		open := strings.LastIndex(s, " (")
		if open < 0 || !isDistinctive(s[open+2:len(s)-1]) {
			return "", false
		}
		words := strings.Fields(s[:open])
		start := len(words)
		for start > 0 && len(words)-start < 6 {
			r, _ := utf8.DecodeRuneInString(words[start-1])
			if !unicode.IsUpper(r) || strings.ContainsAny(words[start-1], ",.;:") {
				break
			}
			start--
		}
		if start == len(words) {
			return s[open+1:], true
		}
		return strings.Join(words[start:], " ") + s[open:], true
	}
	words := strings.Fields(s)
	if len(words) == 0 || !isDistinctive(words[len(words)-1]) {
		return "", false
	}
	return words[len(words)-1], true
}

// trailingNoun moves a following "framework", "model", ... into the name.
func trailingNoun(name *string, after string) string {
	w, _, _ := strings.Cut(strings.TrimPrefix(after, " "), " ")
	w = strings.TrimRight(w, ",.;:")
	if strings.HasPrefix(after, " ") && nameNouns[w] {
		*name += " " + w
		return after[1+len(w):]
	}
	return after
}

// isDistinctive reports whether tok looks like a method's name rather than
// an ordinary word: capitals after the first letter (LaCache, EQ-VAE, HyMN,
// RG) or letters mixed with digits and a capital (GPT4o).
func isDistinctive(tok string) bool {
	if utf8.RuneCountInString(tok) < 2 || utf8.RuneCountInString(tok) > 40 {
		return false
	}
	upper, letters := 0, 0
	for i, r := range tok {
		switch {
		case unicode.IsUpper(r):
			letters++
			if i > 0 {
				upper++
			}
		case unicode.IsLetter(r):
			letters++
		case unicode.IsDigit(r), r == '-', r == '_', r == '+', r == '.':
		default:
			return false
		}
	}
	first, _ := utf8.DecodeRuneInString(tok)
	return letters > 0 && upper > 0 && (unicode.IsUpper(first) || unicode.IsLower(first) || unicode.IsDigit(first)) && !notMethodNames[tok]
}

// notMethodNames are capitalised words that are not a method's name.
var notMethodNames = map[string]bool{
	"LLM": true, "LLMs": true, "AI": true, "ML": true, "NLP": true, "GNN": true, "GNNs": true,
	"CNN": true, "CNNs": true, "RL": true, "DNN": true, "DNNs": true, "II": true, "III": true,
	"US": true, "UK": true, "EU": true,
}
