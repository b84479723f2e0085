package search

import (
	"context"
	"maps"
	"slices"
)

// AnswerCandidate is one abstract sentence as the answer scorer sees it.
type AnswerCandidate struct {
	Text     string
	Features []float64 // in the order of AnswerFeatureNames
}

// AnswerFeatureNames names the answer scorer's features.
func AnswerFeatureNames() []string { return slices.Clone(answerFeatureNames[:]) }

// AnswerWeights returns the fitted answer scorer's weights and the earlier
// hand-set scorer's (t's AnswerCue and AnswerLate) on the same features.
func AnswerWeights(t Tuning) (fitted, cues []float64) {
	return slices.Clone(fittedAnswerWeights[:]), slices.Clone(cueWeights(t.AnswerCue, t.AnswerLate)[:])
}

// AnswerFixedWeights returns the weights a fit must hold, by feature index.
func AnswerFixedWeights() map[int]float64 { return maps.Clone(fixedAnswerWeights) }

// PickAnswer returns the index of the candidate weights w rate best among
// those that match part of the query, as Search picks its answer; -1 when
// none matches.
func PickAnswer(cands []AnswerCandidate, w []float64) int {
	var wf answerFeatures
	copy(wf[:], w)
	fs := make([]answerFeatures, len(cands))
	for i, c := range cands {
		copy(fs[i][:], c.Features)
	}
	return pickAnswer(fs, &wf, true)
}

// AnswerCandidates lists the sentences of paper id's abstract with their
// answer features for query text, so that the scorer can be fitted on
// judged sentences (paperbot eval --fit-answers). An unknown id is
// NotFound; a query Search would reject is Invalid.
func (ix *Index) AnswerCandidates(ctx context.Context, text, id string) ([]AnswerCandidate, error) {
	q, err := parseQuery(text)
	if err != nil {
		return nil, err
	}
	st, release, err := ix.live()
	if err != nil {
		return nil, err
	}
	defer release()
	p, err := st.paper("answer candidates", id)
	if err != nil {
		return nil, err
	}
	mt := st.questionMatcher(q)
	m := st.match(p, mt)
	sents := st.doc(p).sents
	fs := sentenceFeatures(p.Abstract, sents, m.abstract, mt.groups, mt.grams, false)
	out := make([]AnswerCandidate, len(sents))
	for si, sp := range sents {
		out[si] = AnswerCandidate{Text: p.Abstract[sp.Start:sp.End], Features: slices.Clone(fs[si][:])}
	}
	return out, ctx.Err()
}
