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

// domainWeights is the grid eval --fit-refusal sweeps.
var domainWeights = []float64{0, 0.02, 0.04, 0.06, 0.08, 0.10, 0.12}

// refusalFitOutput is what eval --fit-refusal prints with --json.
type refusalFitOutput struct {
	OffDomain []string          `json:"off_domain"`
	Fits      []eval.RefusalFit `json:"fits"`
	Best      eval.RefusalFit   `json:"best"`
}

// runFitRefusal fits the refusal on a train split: for each domain weight,
// the threshold that keeps false refusals within maxFalseRefusals, and the
// share of the off-domain sets it refuses; the best weight and threshold
// are the ones to put in search.DefaultTuning.
func runFitRefusal(e *env, b *eval.Benchmark, offCorpus, offQueries string, opts eval.Options, asJSON bool) error {
	off, err := offDomainSets(b, offCorpus, offQueries)
	if err != nil {
		return err
	}
	answerable := eval.QuerySet{Name: b.Name + " " + b.Split, Corpus: b.Corpus, Queries: b.QueryTexts()}
	fits, best, err := eval.FitRefusal(e.ctx, answerable, off, domainWeights, maxFalseRefusals, curveSteps, opts)
	if err != nil {
		return err
	}
	out := refusalFitOutput{Fits: fits, Best: fits[best]}
	for _, s := range off {
		out.OffDomain = append(out.OffDomain, s.Name)
	}
	if asJSON {
		return writeJSON(e.stdout, out)
	}
	w := e.stdout
	fmt.Fprintf(w, "%s, %s split: %d answerable queries; refusal fitted to at most %.1f%% false refusals\n", b.Name, b.Split, len(answerable.Queries), 100*maxFalseRefusals)
	for i, name := range out.OffDomain {
		fmt.Fprintf(w, "off-domain set %d: %s\n", i+1, name)
	}
	fmt.Fprintf(w, "\n%7s %9s %15s", "domain", "threshold", "false refusals")
	for i := range off {
		fmt.Fprintf(w, " %10s", fmt.Sprintf("refused %d", i+1))
	}
	fmt.Fprintln(w)
	for _, f := range fits {
		fmt.Fprintf(w, "%7.2f %9.2f %15d", f.Domain, f.Threshold, f.FalseRefusals)
		for _, s := range f.OffRefused {
			fmt.Fprintf(w, " %10.3f", s)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\nbest (most off-domain queries refused on average): domain %.2f, refuse %.2f\n", out.Best.Domain, out.Best.Threshold)
	fmt.Fprintf(w, "set them in search.DefaultTuning (search/tuning.go); false refusals count the short-query rule's too\n")
	return nil
}
