package eval

import (
	"context"
	"fmt"
	"hash/fnv"
	"maps"
	"slices"

	"github.com/paperbot/paperbot/search"
)

// AnswerFit is the answer scorer fitted on a benchmark's rationales: a
// linear score over search's sentence features, trained so that the
// abstract's best-scoring sentence is a rationale (a softmax over each
// judged abstract's sentences), its regularisation chosen by
// cross-validation.
type AnswerFit struct {
	Names []string `json:"features"`
	// Pairs counts judged (query, abstract with rationales) pairs; Reachable
	// those where some sentence that matches the query matches a rationale
	// (token F1 >= 0.6): no scorer can be right on the others.
	Pairs     int `json:"pairs"`
	Reachable int `json:"reachable"`
	// Top counts the pairs whose abstract is paperbot's first result for
	// the claim: the queries eval's answer accuracy judges.
	Top   int `json:"top"`
	Folds int `json:"folds"`
	// Sweep is the cross-validated accuracy of each regularisation tried;
	// Lambda the one chosen.
	Sweep  []LambdaScore `json:"sweep"`
	Lambda float64       `json:"lambda"`
	// CV counts pairs the fitted scorer gets right on held-out folds; Cue
	// the earlier hand-set scorer on the same pairs; Shipped the weights
	// search ships with now (fitted on all of them, so not held out).
	CV, Cue, Shipped Right `json:"-"`
	CVCorrect        int   `json:"cv_correct"`
	// Weights are fitted on every pair with Lambda, in Names' order.
	Weights []float64 `json:"weights"`
	// Fixed are the features held at a given weight, not fitted.
	Fixed map[string]float64 `json:"fixed,omitempty"`
	// Without is, per feature, the cross-validated count with that feature
	// left out (at Lambda): which features earn their place.
	Without []int `json:"cv_correct_without"`
}

// LambdaScore is one regularisation's cross-validated result.
type LambdaScore struct {
	Lambda  float64 `json:"lambda"`
	Correct int     `json:"correct"`
}

// Right counts right picks over all pairs and over the Top ones.
type Right struct {
	All int `json:"all"`
	Top int `json:"top"`
}

// answerLambdas is the L2 grid the cross-validation chooses from.
var answerLambdas = []float64{1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2, 1e-1}

// answerPair is one judged abstract: its competing sentences' features
// and which of them match a rationale.
type answerPair struct {
	fold  int
	top   bool // the abstract is paperbot's first result for the claim
	x     [][]float64
	pos   []bool
	cands []search.AnswerCandidate // all sentences, for PickAnswer
	right map[int]bool             // indices into cands that match a rationale
}

// FitAnswers fits the answer scorer on b's rationales with folds-fold
// cross-validation. Folds split by abstract, not by query: SciFact pairs
// claims with their negations on the same abstract, which would otherwise
// leak between folds.
func FitAnswers(ctx context.Context, b *Benchmark, folds int, opts Options) (*AnswerFit, error) {
	if folds < 2 {
		return nil, fmt.Errorf("fit answers: want at least 2 folds, got %d", folds)
	}
	ix, err := search.Open(ctx, b.Corpus, opts.Search)
	if err != nil {
		return nil, err
	}
	defer ix.Close()
	paperOf := make(map[string]string, len(b.DocOf))
	for pid, did := range b.DocOf {
		paperOf[did] = pid
	}
	fit := &AnswerFit{Names: search.AnswerFeatureNames(), Folds: folds}
	var pairs []answerPair
	for _, q := range b.Queries {
		top := ""
		if res, err := ask(ctx, ix, q.Text, 1); err == nil && len(res.Results) > 0 {
			top = b.DocOf[res.Results[0].ID]
		}
		for _, did := range slices.Sorted(maps.Keys(q.Rationales)) {
			pid, ok := paperOf[did]
			if !ok || q.Relevant[did] == 0 {
				continue
			}
			cands, err := ix.AnswerCandidates(ctx, q.Text, pid)
			if err != nil {
				if search.KindOf(err) == search.Invalid {
					continue
				}
				return nil, err
			}
			p := answerPair{fold: foldOf(did, folds), top: did == top, cands: cands, right: map[int]bool{}}
			for i, c := range cands {
				for _, r := range q.Rationales[did] {
					if tokenF1(c.Text, r) >= answerF1 {
						p.right[i] = true
					}
				}
				if c.Features[0] > 0 { // feature 0 is query coverage: only matching sentences compete
					p.x = append(p.x, c.Features)
					p.pos = append(p.pos, p.right[i])
				}
			}
			fit.Pairs++
			if p.top {
				fit.Top++
			}
			if p.reachable() {
				fit.Reachable++
			}
			pairs = append(pairs, p)
		}
	}
	if fit.Reachable == 0 {
		return nil, fmt.Errorf("fit answers: %s %s has no rationale sentence a query matches", b.Name, b.Split)
	}
	shipped, cues := search.AnswerWeights(tuningOf(opts))
	fixed := search.AnswerFixedWeights()
	fit.Cue = countRight(pairs, cues)
	fit.Shipped = countRight(pairs, shipped)

	for _, lambda := range answerLambdas {
		r := crossValidate(pairs, folds, len(fit.Names), lambda, fixed, -1)
		fit.Sweep = append(fit.Sweep, LambdaScore{Lambda: lambda, Correct: r.All})
		// Ties go to the stronger regularisation (later in the grid).
		if r.All >= fit.CV.All {
			fit.CV, fit.Lambda = r, lambda
		}
	}
	fit.CVCorrect = fit.CV.All
	for k, w := range fixed {
		if fit.Fixed == nil {
			fit.Fixed = map[string]float64{}
		}
		fit.Fixed[fit.Names[k]] = w
	}
	fit.Weights = fitSoftmax(pairs, len(fit.Names), fit.Lambda, fixed)
	for k := range fit.Names {
		fit.Without = append(fit.Without, crossValidate(pairs, folds, len(fit.Names), fit.Lambda, fixed, k).All)
	}
	return fit, nil
}

// crossValidate counts the pairs whose held-out pick is right, fitting on
// the other folds; feature drop (>= 0) is left out.
func crossValidate(pairs []answerPair, folds, dim int, lambda float64, fixed map[int]float64, drop int) Right {
	var n Right
	for f := range folds {
		var train []answerPair
		for _, p := range pairs {
			if p.fold != f {
				train = append(train, p.without(drop))
			}
		}
		w := fitSoftmax(train, dim, lambda, fixed)
		for _, p := range pairs {
			if p.fold == f {
				n.add(p, w)
			}
		}
	}
	return n
}

// add counts p if w picks a rationale in it.
func (r *Right) add(p answerPair, w []float64) {
	if p.right[search.PickAnswer(p.cands, w)] {
		r.All++
		if p.top {
			r.Top++
		}
	}
}

// without returns p with feature k zeroed in its competitors (k < 0: p).
func (p answerPair) without(k int) answerPair {
	if k < 0 {
		return p
	}
	x := make([][]float64, len(p.x))
	for i, row := range p.x {
		x[i] = append([]float64(nil), row...)
		x[i][k] = 0
	}
	p.x = x
	return p
}

func (p *answerPair) reachable() bool {
	for _, ok := range p.pos {
		if ok {
			return true
		}
	}
	return false
}

// countRight counts pairs whose pick under w matches a rationale.
func countRight(pairs []answerPair, w []float64) Right {
	var n Right
	for _, p := range pairs {
		n.add(p, w)
	}
	return n
}

// foldOf assigns an abstract to a fold by a hash of its ID.
func foldOf(id string, folds int) int {
	h := fnv.New32a()
	h.Write([]byte(id))
	return int(h.Sum32() % uint32(folds))
}
