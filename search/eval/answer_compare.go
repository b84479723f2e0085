package eval

import (
	"context"

	"github.com/paperbot/paperbot/search"
)

// scoreCueAnswer judges, on the same query and top paper as scoreAnswer,
// the sentence the earlier hand-set cue scorer would pick, so one run shows
// both scorers (Report.AnswerCorrectCues).
func (r *Report) scoreCueAnswer(ctx context.Context, ix *search.Index, judged bool, q Query, res *search.Results, ranked []string, cues []float64) error {
	if !judged {
		return nil
	}
	top := res.Results[0]
	cands, err := ix.AnswerCandidates(ctx, q.Text, top.ID)
	if err != nil {
		return err
	}
	text := top.Snippet.String()
	if i := search.PickAnswer(cands, cues); i >= 0 {
		text = cands[i].Text
	}
	for _, s := range q.Rationales[ranked[0]] {
		if tokenF1(text, s) >= answerF1 {
			r.AnswerCorrectCues++
			return nil
		}
	}
	return nil
}

// tuningOf is the tuning a run searches with.
func tuningOf(opts Options) search.Tuning {
	if opts.Search.Tuning != nil {
		return *opts.Search.Tuning
	}
	return search.DefaultTuning()
}
