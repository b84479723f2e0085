package search

import (
	"strings"
	"unicode"

	"github.com/paperbot/paperbot/search/query"
)

// Users ask about a paper's finding, so the answer sentence is the one that
// matches the question and states a result, not the one that restates the
// question ("OBJECTIVE To assess whether ...") or gives background. The cue
// lists hold across fields: structured medical abstracts label their parts,
// ML abstracts say "we show", "outperforms", "achieves".
var (
	framingStarts = []string{"objective", "background", "purpose", "aim", "introduction", "context", "importance",
		"method", "design", "setting", "participants", "patients and methods", "study design"}
	framingPhrases = []string{"we aimed", "we sought", "we asked", "we hypothesized", "we hypothesised",
		"investigated whether", "examined whether", "the aim of", "the purpose of", "remains unclear",
		"remain unclear", "remains unknown", "remain unknown", "remains elusive", "remain elusive"}
	framingVerbs   = []string{"assess", "determine", "investigate", "evaluate", "examine", "test"}
	findingStarts  = []string{"result", "conclusion", "finding", "interpretation"}
	findingPhrases = []string{"we show", "we find", "we found", "we demonstrate", "we observe", "we prove",
		"we report", "significantly", "outperform", "achiev", "leads to", "lead to", "resulted in", "conclude",
		" p <", " p<", " p =", " p=", "(p <", "(p<", "(p =", "(p=", "95%", "odds ratio", "hazard ratio", "relative risk"}
	findingSubjects = []string{"results", "data", "findings", "analyses", "experiments"}
	findingVerbs    = []string{"show", "suggest", "indicate", "demonstrate", "reveal", "confirm"}
	changeWords     = []string{"associated", "correlated", "higher", "lower", "increased", "decreased", "reduced", "improved"}
)

// sentenceCue is +1 for a sentence that states a finding, -1 for one that
// frames the question or the method, 0 otherwise.
func sentenceCue(s string) float64 {
	low := string(lowerPadded(nil, s))
	return cueOf(cuePhrases.mask(low), low)
}

// cueOf is sentenceCue of low (a sentence lower-cased and padded by
// lowerPadded) with phrase mask m.
func cueOf(m uint64, low string) float64 {
	s := strings.TrimSpace(low)
	switch {
	case startsWithWord(s, framingStarts) || phFraming.in(m) || strings.HasSuffix(s, "?"):
		return -1
	case phPurpose.in(m):
		return -1
	case startsWithWord(s, findingStarts) || phCueFinding.in(m):
		return 1
	}
	return 0
}

// startsWithWord reports whether s starts with one of words (or its
// plural), followed by a non-letter: "results:" and "methods we" but not
// "resultant".
func startsWithWord(s string, words []string) bool {
	for _, w := range words {
		if rest, ok := strings.CutPrefix(s, w); ok {
			rest = strings.TrimPrefix(rest, "s")
			if rest == "" || !unicode.IsLetter([]rune(rest)[0]) {
				return true
			}
		}
	}
	return false
}

// findingClaims are "results show", "data suggested", "was associated",
// "were significantly higher" and the like, spelled out once.
var findingClaims = func() []string {
	var out []string
	for _, sub := range findingSubjects {
		for _, v := range findingVerbs {
			out = append(out, sub+" "+v)
		}
	}
	for _, be := range []string{"was ", "were "} {
		for _, c := range changeWords {
			out = append(out, be+c, be+"significantly "+c)
		}
	}
	return out
}()

// answerSentence picks the answer: among the sentences that match part of
// the query, the one the scorer w rates best (answer_weights.go); -1 when
// no sentence matches.
func answerSentence(text string, sents []span, hits []hit, mt *matcher, w *answerFeatures) int {
	if mt.defines {
		if i := definingSentence(text, sents, hits, mt.groups); i >= 0 {
			return i
		}
	}
	fs := sentenceFeatures(text, sents, hits, mt.groups, mt.grams, false)
	if mt.quantity {
		// "How much faster is it?": the sentence with a magnitude ("2.6×
		// less", "by 30%"), else with a number, when one that matches the
		// question has one. A number in a name ("2bit", "Llama-2") says
		// how much of nothing.
		magnitudes := make([]answerFeatures, len(fs))
		numbered := make([]answerFeatures, len(fs))
		for i := range fs {
			if fs[i][featNumbers] > 0 {
				numbered[i] = fs[i]
				if hasMagnitude(text[sents[i].Start:sents[i].End]) {
					magnitudes[i] = fs[i]
				}
			}
		}
		for _, cands := range [][]answerFeatures{magnitudes, numbered} {
			if best := pickAnswer(cands, w, true); best >= 0 {
				return best
			}
		}
	}
	return pickAnswer(fs, w, true)
}

// definingSentence returns the first sentence where the word asked about,
// a query word with a capital (the acronym), is spelled out beside it in
// brackets, "CoMiGS (Collaborative learning with a Mixture of Generalists
// and Specialists)" or "... Specialists (CoMiGS)"; -1 when none is.
func definingSentence(text string, sents []span, hits []hit, groups []group) int {
	for i, sp := range sents {
		for _, h := range hits {
			if w := groups[h.group].surface; h.start < sp.Start || h.end > sp.End || !oneWord(w) || strings.IndexFunc(w, unicode.IsUpper) < 0 {
				continue
			}
			after, before := text[h.end:sp.End], text[sp.Start:h.start]
			// "X (" with room for a long form after it, or "(X)".
			if strings.HasPrefix(after, " (") && len(after) > len(" (")+minLongForm || strings.HasSuffix(before, "(") && strings.HasPrefix(after, ")") {
				return i
			}
		}
	}
	return -1
}

// minLongForm is the fewest bytes a long form spelled out in brackets takes.
const minLongForm = 8

// findingSentence picks the answer of an abstract no sentence of which
// matches the query (the paper matched by its title alone): the sentence
// the scorer w rates best on all but coverage, its finding; -1 when there
// is no sentence.
func findingSentence(text string, sents []span, mt *matcher, w *answerFeatures) int {
	return pickAnswer(sentenceFeatures(text, sents, nil, mt.groups, mt.grams, true), w, false)
}

// cueWeights is the earlier hand-set scorer on the same features: query
// coverage, plus cue times the finding cue (minus for framing), plus late
// times the position (findings come late in an abstract).
func cueWeights(cue, late float64) *answerFeatures {
	var w answerFeatures
	w[featCov], w[featCue], w[featPos] = 1, cue, late
	return &w
}

// sentenceCoverage is the idf-weighted share of the query one sentence
// matches.
func sentenceCoverage(sp span, hits []hit, groups []group) float64 {
	credit := make([]float64, len(groups))
	for _, h := range hits {
		if h.start >= sp.Start && h.end <= sp.End {
			credit[h.group] = max(credit[h.group], h.credit)
		}
	}
	return coverage(groups, credit)
}

// maxSentenceCoverage is the best share of the query one sentence matches.
func maxSentenceCoverage(sents []span, hits []hit, groups []group) float64 {
	best := 0.0
	for _, sp := range sents {
		best = max(best, sentenceCoverage(sp, hits, groups))
	}
	return best
}

// hasMagnitude reports whether sentence states how much: a number with a
// factor or share after it ("2.6×", "4x", "30%", "2.35 ×", "3-fold", "10
// times"). The factor written on (query.IsMagnitude) is the query's "100x" too.
func hasMagnitude(sentence string) bool {
	number := func(s string) bool { return strings.ContainsAny(s, "0123456789") && isNumber(s) }
	words := strings.Fields(sentence)
	for i, w := range words {
		w = strings.Trim(w, "~≈<>(),;:.")
		switch {
		case query.IsMagnitude(w),
			number(strings.TrimSuffix(w, "%")) && strings.HasSuffix(w, "%"),
			number(strings.TrimSuffix(w, "-fold")) && strings.HasSuffix(w, "-fold"):
			return true
		case number(w) && i+1 < len(words):
			switch strings.ToLower(strings.Trim(words[i+1], ",;:.)")) {
			case "×", "x", "%", "fold", "times":
				return true // "2.35 ×", "10 times"
			}
		}
	}
	return false
}
