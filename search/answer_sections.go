package search

import (
	"strings"
	"unicode"
)

// section is the part of a structured abstract a sentence belongs to.
type section int

const (
	secNone section = iota
	secBackground
	secObjective
	secMethods
	secResults
	secConclusion
)

// sectionWords map a label's words to its part, by word stem; a label
// naming two parts ("METHODS AND FINDINGS") takes the later one.
var sectionWords = []struct {
	prefix string
	sec    section
}{
	{"conclusion", secConclusion}, {"interpretation", secConclusion}, {"implication", secConclusion},
	{"significance", secConclusion}, {"discussion", secConclusion}, {"relevance", secConclusion},
	{"result", secResults}, {"finding", secResults}, {"synthesis", secResults},
	{"method", secMethods}, {"design", secMethods}, {"setting", secMethods}, {"participant", secMethods},
	{"patient", secMethods}, {"subject", secMethods}, {"intervention", secMethods}, {"measure", secMethods},
	{"sample", secMethods}, {"material", secMethods}, {"procedure", secMethods}, {"exposure", secMethods},
	{"selection", secMethods}, {"extraction", secMethods},
	{"objective", secObjective}, {"aim", secObjective}, {"purpose", secObjective}, {"goal", secObjective},
	{"background", secBackground}, {"introduction", secBackground}, {"context", secBackground},
	{"importance", secBackground}, {"rationale", secBackground}, {"motivation", secBackground},
}

// sectionLabel reads a structured abstract's label at the start of s: a run
// of capitalised words ("MAIN OUTCOME MEASURES") or a word before a colon
// ("Results: ..."). It returns secNone when s starts with no label.
func sectionLabel(s string) section {
	// Words before a colon near the start.
	if i := strings.IndexByte(s, ':'); i > 0 && i <= 40 {
		if sec := labelWords(s[:i]); sec != secNone {
			return sec
		}
	}
	// A leading run of upper-case words.
	end := 0
	for end < len(s) {
		r := rune(s[end])
		if r == ' ' || r == ',' || r == '/' || r == '&' || (r >= 'A' && r <= 'Z') {
			end++
			continue
		}
		break
	}
	// The run must end at a word boundary, before ordinary text.
	for end > 0 && end < len(s) && s[end-1] != ' ' {
		end--
	}
	if end < 3 {
		return secNone
	}
	return labelWords(s[:end])
}

// labelWords classifies a label; every word must be a label word or a
// joiner ("and", "main"), so "Methods for ranking:" is no label.
func labelWords(label string) section {
	best := secNone
	for _, w := range strings.FieldsFunc(strings.ToLower(label), func(r rune) bool { return !unicode.IsLetter(r) }) {
		var sec section
		for _, sw := range sectionWords {
			if strings.HasPrefix(w, sw.prefix) {
				sec = sw.sec
				break
			}
		}
		switch {
		case sec != secNone:
			best = sec
		case w == "and" || w == "main" || w == "principal" || w == "study" || w == "outcome" || w == "key" ||
			w == "primary" || w == "secondary" || w == "data" || w == "sources" || w == "of" || w == "the":
		default:
			return secNone
		}
	}
	return best
}

// innerLabels are the labels a structured abstract's findings start with,
// as they appear inside a sentence.
var innerLabels = []struct {
	label string
	sec   section
}{{" RESULTS ", secResults}, {" FINDINGS ", secResults}, {" CONCLUSION ", secConclusion},
	{" CONCLUSIONS ", secConclusion}, {" INTERPRETATION ", secConclusion}}

// innerLabel finds a findings label inside s, after its start.
func innerLabel(s string) section {
	for _, l := range innerLabels {
		if strings.Contains(s, l.label) {
			return l.sec
		}
	}
	return secNone
}
