package main

import (
	"fmt"
	"io"

	"github.com/paperbot/paperbot/search/eval"
)

// answerFolds is the cross-validation of eval --fit-answers.
const answerFolds = 5

// runFitAnswers fits the answer scorer on a train split and prints the
// cross-validated accuracy beside the earlier scorer's, and the weights as
// the Go block of search/answer_weights.go.
func runFitAnswers(e *env, b *eval.Benchmark, opts eval.Options, asJSON bool) error {
	fit, err := eval.FitAnswers(e.ctx, b, answerFolds, opts)
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(e.stdout, fit)
	}
	printAnswerFit(e.stdout, b, fit)
	return nil
}

func printAnswerFit(w io.Writer, b *eval.Benchmark, fit *eval.AnswerFit) {
	share := func(n int) string { return fmt.Sprintf("%d of %d = %.3f", n, fit.Pairs, float64(n)/float64(fit.Pairs)) }
	fmt.Fprintf(w, "%s, %s split: %d judged (claim, abstract) pairs; %d have a rationale among the sentences that match the claim\n\n",
		b.Name, b.Split, fit.Pairs, fit.Reachable)
	fmt.Fprintf(w, "answer sentence matches a rationale (token F1 >= 0.6), %d-fold cross-validation by abstract:\n", fit.Folds)
	for _, s := range fit.Sweep {
		fmt.Fprintf(w, "  lambda %-7g %s\n", s.Lambda, share(s.Correct))
	}
	both := func(r eval.Right) string {
		return fmt.Sprintf("%s; top result only %d of %d = %.3f", share(r.All), r.Top, fit.Top, float64(r.Top)/float64(max(fit.Top, 1)))
	}
	fmt.Fprintf(w, "\nright picks, all pairs; and the pairs whose abstract is paperbot's top result (eval's answer accuracy):\n")
	fmt.Fprintf(w, "  fitted scorer, held-out folds (lambda %g): %s\n", fit.Lambda, both(fit.CV))
	fmt.Fprintf(w, "  earlier cue scorer (nothing fitted):      %s\n", both(fit.Cue))
	fmt.Fprintf(w, "  weights search ships with (not held out): %s\n\n", both(fit.Shipped))
	fmt.Fprintf(w, "weights fitted on every pair, for search/answer_weights.go (beside each: cross-validated right picks without the feature, against %d with all):\n\n", fit.CVCorrect)
	fmt.Fprintf(w, "var fittedAnswerWeights = answerFeatures{\n")
	for i, name := range fit.Names {
		note := ""
		if _, ok := fit.Fixed[name]; ok {
			note = ", held (fixedAnswerWeights)"
		}
		fmt.Fprintf(w, "\tfeat%s: %.4f, // %d%s\n", name, fit.Weights[i], fit.Without[i], note)
	}
	fmt.Fprintf(w, "}\n")
}
