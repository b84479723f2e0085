package search

import (
	"context"
	"strings"
	"unicode"

	"github.com/paperbot/paperbot/search/query"
)

// AnswerIn returns paper id and the sentence of its abstract that answers
// question, picked as Search picks a result's answer: among the sentences
// that match part of the question, the one the answer scorer rates best.
// It is "" when no sentence matches: the abstract does not say, and no
// sentence is offered as a guess. A question with no words to match ("what
// does it do?", or none) gets the paper's finding sentence. An unknown id is
// NotFound; a question Search would reject is Invalid.
func (ix *Index) AnswerIn(ctx context.Context, id, question string) (Paper, string, error) {
	var q *query.Parsed
	if strings.TrimSpace(question) != "" {
		var err error
		if q, err = parseQuery(question); err != nil {
			return Paper{}, "", err
		}
	}
	st, release, err := ix.live()
	if err != nil {
		return Paper{}, "", err
	}
	defer release()
	p, err := st.paper("answer in paper", id)
	if err != nil {
		return Paper{}, "", err
	}
	mt := newMatcher(nil)
	if q != nil {
		mt = st.questionMatcher(q)
	}
	sents := st.doc(p).sents
	best := -1
	if len(mt.groups) == 0 {
		best = findingSentence(p.Abstract, sents, mt, st.answerWeights())
	} else {
		m := st.match(p, mt)
		best = answerSentence(p.Abstract, sents, m.abstract, mt, st.answerWeights())
		if best < 0 {
			best = inflectedSentence(p.Abstract, sents, mt, st.answerWeights())
		}
	}
	if best < 0 {
		return p.Paper, "", ctx.Err()
	}
	return p.Paper, p.Abstract[sents[best].Start:sents[best].End], ctx.Err()
}

// questionMatcher is q's matcher, with its 3-grams, for scoring the
// sentences of one paper (AnswerIn, AnswerCandidates).
func (s *state) questionMatcher(q *query.Parsed) *matcher {
	mt := newMatcher(s.textGroups(q))
	mt.grams = s.queryGrams(s.gramWords(q, mt.groups))
	return mt
}

// minInflectedLen is the shortest typed word matched by its inflections
// alone: shorter ones ("use") begin too many other words.
const minInflectedLen = 4

// inflectedSentence is the sentence holding the most of the query's words
// in a form Porter stems apart from them ("embed" is "emb", "embedding"
// "embed"), counting a word of the sentence that is the typed word plus an
// inflection; among those, the one the scorer w rates best as a finding.
// It is -1 when no sentence has any.
func inflectedSentence(text string, sents []span, mt *matcher, w *answerFeatures) int {
	var typed []string
	for _, g := range mt.groups {
		w := strings.ToLower(g.surface)
		if len(w) >= minInflectedLen && asciiLetters(w) && !functionWords[w] {
			typed = append(typed, w)
		}
	}
	counts := make([]int, len(sents))
	bestN := 0
	for i, sp := range sents {
		words := strings.FieldsFunc(strings.ToLower(text[sp.Start:sp.End]), func(r rune) bool { return !unicode.IsLetter(r) })
		n := 0
		for _, t := range typed {
			for _, w := range words {
				if len(w) > len(t) && strings.HasPrefix(w, t) && inflected(w, len(t)) {
					n++
					break
				}
			}
		}
		counts[i], bestN = n, max(bestN, n)
	}
	if bestN == 0 {
		return -1
	}
	all := sentenceFeatures(text, sents, nil, mt.groups, mt.grams, true)
	var fs []answerFeatures
	var at []int
	for i, n := range counts {
		if n == bestN {
			fs, at = append(fs, all[i]), append(at, i)
		}
	}
	if best := pickAnswer(fs, w, false); best >= 0 {
		return at[best]
	}
	return at[0]
}

// FindingSentence returns the sentence of abstract that states its finding,
// as the answer scorer picks it for a paper matched by its title alone;
// "" for an abstract with no sentence. It needs no index: it serves papers
// shown but not indexed (a pasted link to a paper the corpus lacks).
func FindingSentence(abstract string) string {
	sents := sentences(abstract)
	if len(sents) == 0 {
		return ""
	}
	best := findingSentence(abstract, sents, newMatcher(nil), &fittedAnswerWeights)
	if best < 0 {
		return ""
	}
	return abstract[sents[best].Start:sents[best].End]
}
