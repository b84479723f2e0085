package search

import (
	"math"
	"strings"
)

// The answer scorer weighs these features of each abstract sentence. They
// are meant to hold across fields: how much of the query the sentence
// covers, where it stands, which part of a structured abstract it belongs
// to, and whether it states a result or frames the question. The weights
// are fitted on data (answer_weights.go); the order here is theirs.
const (
	featCov        = iota // idf-weighted share of the query the sentence matches
	featCovRel            // that share over the abstract's best sentence's
	featCovTop            // 1 for the abstract's best-covering sentence(s)
	featShare             // unweighted share of the query's groups matched
	featRare              // matches the rarest query group the abstract has
	featPos               // position, 0 first .. 1 last
	featFirst             // the first sentence
	featLast              // the last sentence
	featBackground        // in a BACKGROUND / INTRODUCTION / CONTEXT section
	featObjective         // in an OBJECTIVE / AIM / PURPOSE section
	featMethods           // in a METHODS / DESIGN / SETTING section
	featResults           // in a RESULTS / FINDINGS section
	featConclusion        // in a CONCLUSIONS / INTERPRETATION section
	featFinding           // "we show", "we found", "significantly", "outperforms"
	featStat              // p-values, confidence intervals, odds or hazard ratios
	featNumbers           // share of words with digits
	featChange            // "increased", "reduced", "associated with", "inhibits"
	featHedge             // "suggest", "indicate", "may", "likely"
	featNegation          // "not", "no"
	featFraming           // restates the question or the aim ("to assess whether", "?")
	featContrib           // "we propose", "here we", "in this paper"
	featLength            // log of the word count
	featShort             // fewer than 8 words
	featCue               // the phrase-list cue of the earlier scorer: +1 finding, -1 framing
	featGrams             // idf-weighted share of the query's character 3-grams in the sentence
	featUnknown           // states what is unknown ("remains unclear", "little is known")
	featProcedure         // says what was done ("we generated", "were recruited", "to test this")
	featPointer           // points to code, data or a web page ("code is available at", a URL): see pickAnswer
	featSetting           // sets the scene ("in recent years", "has become", "widely used")
	numAnswerFeatures
)

// answerFeatureNames name the features for the fitting command: each is its
// constant's name without "feat", so the weights print as Go.
var answerFeatureNames = [numAnswerFeatures]string{
	"Cov", "CovRel", "CovTop", "Share", "Rare", "Pos", "First", "Last",
	"Background", "Objective", "Methods", "Results", "Conclusion",
	"Finding", "Stat", "Numbers", "Change", "Hedge", "Negation", "Framing", "Contrib",
	"Length", "Short", "Cue", "Grams", "Unknown", "Procedure", "Pointer", "Setting",
}

// answerFeatures is one sentence's feature vector.
type answerFeatures [numAnswerFeatures]float64

// sentenceFeatures computes the features of one abstract's sentences.
// hits are the query's matches in text, in text order; qg may be nil (no
// gram feature). Sentences that match no part of the query never compete,
// so only their coverage and section are set, unless every is set (no
// sentence matches: see answerSentence).
func sentenceFeatures(text string, sents []span, hits []hit, groups []group, qg *queryGrams, every bool) []answerFeatures {
	out := make([]answerFeatures, len(sents))
	if len(sents) == 0 {
		return out
	}
	credit := make([]float64, len(groups))
	matched := make([]bool, len(sents)*len(groups)) // sentence si, group gi at si*len(groups)+gi
	var maxCov float64
	h := 0
	for si, sp := range sents {
		clear(credit)
		m := matched[si*len(groups) : (si+1)*len(groups)]
		for ; h < len(hits) && hits[h].start < sp.End; h++ {
			if hits[h].start >= sp.Start && hits[h].end <= sp.End {
				credit[hits[h].group] = max(credit[hits[h].group], hits[h].credit)
				m[hits[h].group] = true
			}
		}
		f := &out[si]
		f[featCov] = coverage(groups, credit)
		maxCov = max(maxCov, f[featCov])
		n := 0
		for _, ok := range m {
			if ok {
				n++
			}
		}
		if len(groups) > 0 {
			f[featShare] = float64(n) / float64(len(groups))
		}
	}
	// The rarest group any sentence matches.
	rare := -1
	for gi, g := range groups {
		for si := range sents {
			if matched[si*len(groups)+gi] && (rare < 0 || g.weight > groups[rare].weight) {
				rare = gi
			}
		}
	}
	sec := secNone
	var seen []bool
	if qg != nil {
		seen = make([]bool, len(qg.idf))
	}
	var buf []byte
	for si, sp := range sents {
		f := &out[si]
		raw := text[sp.Start:sp.End]
		if l := sectionLabel(raw); l != secNone {
			sec = l
		}
		f[featBackground] = b2f(sec == secBackground)
		f[featObjective] = b2f(sec == secObjective)
		f[featMethods] = b2f(sec == secMethods)
		f[featResults] = b2f(sec == secResults)
		f[featConclusion] = b2f(sec == secConclusion)
		// A label inside a sentence the splitter did not cut ("... 3.5
		// micro m. CONCLUSIONS ...") starts its part after it.
		if l := innerLabel(raw); l != secNone {
			sec = l
		}
		if f[featCov] == 0 && !every {
			continue
		}
		if maxCov > 0 {
			f[featCovRel] = f[featCov] / maxCov
			f[featCovTop] = b2f(f[featCov] >= maxCov-1e-9)
		}
		f[featRare] = b2f(rare >= 0 && matched[si*len(groups)+rare])
		if n := len(sents); n > 1 {
			f[featPos] = float64(si) / float64(n-1)
		}
		f[featFirst] = b2f(si == 0)
		f[featLast] = b2f(si == len(sents)-1)
		buf = lowerPadded(buf, raw)
		textFeatures(f, raw, string(buf))
		f[featGrams] = qg.share(raw, seen)
	}
	return out
}

// textFeatures sets the features read from the words of one sentence; low
// is raw lower-cased with a space either side.
func textFeatures(f *answerFeatures, raw, low string) {
	m := cuePhrases.mask(low)
	f[featFinding] = b2f(phFinding.in(m))
	f[featStat] = b2f(phStat.in(m))
	f[featChange] = b2f(phChange.in(m))
	f[featHedge] = b2f(phHedge.in(m))
	f[featNegation] = b2f(phNegation.in(m))
	f[featFraming] = b2f(phFraming.in(m) || phPurpose.in(m) || strings.HasSuffix(low, "? "))
	f[featContrib] = b2f(phContrib.in(m))
	f[featUnknown] = b2f(phUnknown.in(m))
	f[featProcedure] = b2f(phProcedure.in(m))
	f[featPointer] = b2f(phPointer.in(m))
	f[featSetting] = b2f(phSetting.in(m))
	f[featCue] = cueOf(m, low)
	words, numeric := countWords(raw)
	if words > 0 {
		f[featNumbers] = float64(numeric) / float64(words)
	}
	f[featLength] = math.Log1p(float64(words))
	f[featShort] = b2f(words < 8)
}

// lowerPadded writes s into buf with ASCII letters lower-cased and a space
// either side (the phrase lists are ASCII; " may " needs word edges).
func lowerPadded(buf []byte, s string) []byte {
	buf = append(buf[:0], ' ')
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf = append(buf, c)
	}
	return append(buf, ' ')
}

// countWords counts space-separated words, and those holding a digit.
func countWords(s string) (words, numeric int) {
	in, digit := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' || c == '\t' || c == '\n' {
			if in {
				words++
				if digit {
					numeric++
				}
			}
			in, digit = false, false
			continue
		}
		in = true
		if c >= '0' && c <= '9' {
			digit = true
		}
	}
	if in {
		words++
		if digit {
			numeric++
		}
	}
	return words, numeric
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// score is the scorer's value of a sentence: the weighted sum of its
// features.
func (f *answerFeatures) score(w *answerFeatures) float64 {
	var s float64
	for i := range f {
		s += f[i] * w[i]
	}
	return s
}

// pickAnswer returns the index of the best-scoring sentence, among those
// that match part of the query when matching is set (else among all: an
// abstract matched by its title alone still has a finding); -1 when there
// is none. Ties go to the earlier one. A sentence that points to code or a
// web page is no finding, however many of the query's words its URL
// spells: it is picked only when nothing else qualifies.
func pickAnswer(fs []answerFeatures, w *answerFeatures, matching bool) int {
	if best := pickAmong(fs, w, false, matching); best >= 0 {
		return best
	}
	return pickAmong(fs, w, true, matching)
}

// pickAmong is pickAnswer over the sentences that point somewhere
// (pointers) or do not, and match the query when matching is set.
func pickAmong(fs []answerFeatures, w *answerFeatures, pointers, matching bool) int {
	best, bestScore := -1, 0.0
	for i := range fs {
		if matching && fs[i][featCov] == 0 || (fs[i][featPointer] != 0) != pointers {
			continue
		}
		if s := fs[i].score(w); best < 0 || s > bestScore+1e-9 {
			best, bestScore = i, s
		}
	}
	return best
}

// share is the idf-weighted share of q's grams that occur in text; seen is
// scratch space of len(q.idf).
func (q *queryGrams) share(text string, seen []bool) float64 {
	if q == nil || len(q.idf) == 0 {
		return 0
	}
	clear(seen)
	eachGram(text, func(k uint64) {
		if q.mask&gramBucket(k) == 0 {
			return
		}
		if j, ok := q.slot[k]; ok {
			seen[j] = true
		}
	})
	var got, total float64
	for j, idf := range q.idf {
		total += idf
		if seen[j] {
			got += idf
		}
	}
	if total == 0 {
		return 0
	}
	return got / total
}
