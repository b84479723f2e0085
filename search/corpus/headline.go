package corpus

import (
	"regexp"
	"strings"
)

// MaxHeadline is the longest headline, in characters.
const MaxHeadline = 100

// Headline returns the line that names a paper: its title cut to
// MaxHeadline characters at a word boundary, or, when there is no title, a
// line derived from the (cleaned) abstract. The derived line leads with the
// method's name when the abstract names one ("we propose EQ-VAE, a simple
// regularization approach ..." gives "EQ-VAE: a simple regularization
// approach ..."); otherwise it is the main clause of the first sentence.
// Longer lines are cut at a word boundary and end in "…".
func Headline(title, abstract string) string {
	if t := strings.TrimSpace(title); t != "" {
		return cutAtWord(t, MaxHeadline)
	}
	sentences := Sentences(abstract)
	if len(sentences) == 0 {
		return ""
	}
	line := ""
	for _, s := range sentences {
		if line = methodLine(s); line != "" {
			break
		}
	}
	if line == "" {
		line = mainClause(sentences[0])
	}
	if line = strings.TrimRight(line, " .;:,"); line == "" {
		line = strings.TrimSpace(abstract)
	}
	return cutAtWord(capitalizeWord(line), MaxHeadline)
}

// capitalizeWord capitalises a line's first word when it is an ordinary
// lower-case word ("predictive consistency learning" but not "k-means" or
// "iPhone").
func capitalizeWord(s string) string {
	end := strings.IndexAny(s, " -")
	if end < 0 {
		end = len(s)
	}
	if end < 2 {
		return s
	}
	for i := range end {
		if !isASCIILower(s[i]) {
			return s
		}
	}
	return string(s[0]-'a'+'A') + s[1:]
}

var (
	// proposeRe finds the verb that introduces a contribution; the method's
	// name, if any, follows it.
	proposeRe = regexp.MustCompile(`(?i)\b(?:we|i|paper|work|study|here|and)\s+(?:(?:first|further|also|then|now|thus|therefore|hence)\s+)?(?:propose|introduce|present|develop|design|describe|build|devise|create|call|term|name|offer|release|construct)s?\s+`)
	// namedRe finds "called X", "named X", "dubbed X", "termed X", "coined X".
	namedRe = regexp.MustCompile(`(?i)(?:,\s*|\s)(?:called|named|dubbed|termed|coined|referred to as)\s+`)
	// isARe finds "X is a ...".
	isARe = regexp.MustCompile(`^\s+is\s+(a|an)\s`)
	// passiveRe finds "X is proposed".
	passiveRe = regexp.MustCompile(`\s(?:is|are)\s+(?:proposed|introduced|presented|developed)\b`)
)

// methodLine returns a headline naming the method a sentence introduces, or
// "" when the sentence introduces none.
func methodLine(s string) string {
	if loc := proposeRe.FindStringIndex(s); loc != nil {
		object := s[loc[1]:]
		if name, after, ok := nameAt(object); ok {
			return withDescription(name, after)
		}
		if name, desc, ok := laterName(object); ok {
			return name + ": " + desc
		}
	}
	if loc := namedRe.FindStringIndex(s); loc != nil {
		name, after, ok := nameAt(s[loc[1]:])
		if ok {
			if desc, found := appositive(after); found {
				return name + ": " + desc
			}
			before := strings.TrimRight(s[:loc[0]], " ,")
			if v := proposeRe.FindStringIndex(before); v != nil {
				return name + ": " + strings.TrimSpace(before[v[1]:]) + after
			}
			return name + strings.TrimLeft(after, ",")
		}
	}
	if loc := passiveRe.FindStringIndex(s); loc != nil {
		if name, ok := nameBefore(s[:loc[0]]); ok {
			return name + s[loc[0]:]
		}
	}
	if name, after, ok := nameAt(s); ok {
		if desc, found := appositive(after); found {
			return name + ": " + desc
		}
		if isARe.MatchString(after) {
			return name + ":" + strings.TrimPrefix(strings.TrimLeft(after, " "), "is")
		}
	}
	return ""
}

// laterName finds a name given after a description, as in "a novel
// attention mechanism based on dynamic context, Grouped Cross Attention
// (GCA), which ...": it returns the name and the description before it.
func laterName(object string) (name, desc string, ok bool) {
	limit := min(len(object), 160)
	for i := strings.Index(object, ", "); i > 0 && i < limit; {
		if n, after, found := nameAt(object[i+2:]); found && (after == "" || strings.IndexByte(",.;:", after[0]) >= 0) {
			return n, strings.TrimSpace(object[:i]), true
		}
		next := strings.Index(object[i+2:], ", ")
		if next < 0 {
			break
		}
		i += 2 + next
	}
	return "", "", false
}

// maxExpansion is the longest spelled-out name kept before its acronym in a
// headline; longer ones give way to the acronym ("FINDR: an unsupervised
// ..." rather than "Flow-field Inference from Neural Data using deep
// Recurrent networks (FINDR): an ...").
const maxExpansion = 40

// shortName reduces "Long Expansion (ACRO)" and "ACRO (Long Expansion)" to
// "ACRO" when the expansion is longer than maxExpansion.
func shortName(name string) string {
	open := strings.LastIndex(name, " (")
	if open < 0 || !strings.HasSuffix(name, ")") {
		return name
	}
	inner := name[open+2 : len(name)-1]
	switch {
	case open > maxExpansion && isDistinctive(inner):
		return inner // "Long Expansion (ACRO)"
	case len(inner) > maxExpansion && isDistinctive(name[:open]):
		return name[:open] // "ACRO (Long Expansion)"
	}
	return name
}

// withDescription joins a name and the rest of its sentence: "X, a Y"
// becomes "X: a Y"; anything else follows the name as written.
func withDescription(name, after string) string {
	name = shortName(name)
	if desc, ok := appositive(after); ok {
		return name + ": " + desc
	}
	return name + after
}

// appositive returns Y when after is ", a Y" (or an, the).
func appositive(after string) (string, bool) {
	rest, ok := strings.CutPrefix(after, ", ")
	if !ok {
		return "", false
	}
	for _, art := range []string{"a ", "an ", "the "} {
		if strings.HasPrefix(rest, art) {
			return rest, true
		}
	}
	return "", false
}

// parenthetical drops ", which ...," and " -- ... --" asides so a sentence's
// main clause remains.
var parenthetical = regexp.MustCompile(`(?:, (?:which|where|who|whose|while) [^,]{0,200},| -- [^-]{0,200} --| — [^—]{0,200} —)`)

// mainClause returns s without its parenthetical asides.
func mainClause(s string) string {
	if m := parenthetical.ReplaceAllString(s, ""); len(m) >= 40 {
		return m
	}
	return s
}
