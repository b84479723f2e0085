package eval

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/paperbot/paperbot/search"
)

// synthPairs makes judged abstracts whose rationale sentence is the one
// with feature 1 set; feature 0 (coverage) is random but positive, so every
// sentence competes, and feature 2 is noise.
func synthPairs(r *rand.Rand, n, dim int) []answerPair {
	var pairs []answerPair
	for range n {
		p := answerPair{right: map[int]bool{}}
		k := 3 + r.IntN(5)
		pos := r.IntN(k)
		for i := range k {
			x := make([]float64, dim)
			x[0] = 0.1 + r.Float64()
			x[2] = r.Float64()
			if i == pos {
				x[1] = 1
				p.right[i] = true
			}
			p.x = append(p.x, x)
			p.pos = append(p.pos, i == pos)
			p.cands = append(p.cands, search.AnswerCandidate{Features: x})
		}
		pairs = append(pairs, p)
	}
	return pairs
}

func TestFitSoftmaxFindsTheSignal(t *testing.T) {
	dim := len(search.AnswerFeatureNames())
	r := rand.New(rand.NewPCG(1, 2))
	w := fitSoftmax(synthPairs(r, 200, dim), dim, 1e-3, nil)
	if w[1] <= 0 || w[1] < 5*math.Abs(w[2]) {
		t.Errorf("weights %v: want the signal (1) far above the noise (2)", w[:3])
	}
	if got := countRight(synthPairs(r, 100, dim), w); got.All != 100 {
		t.Errorf("%d of 100 fresh pairs right, want all", got.All)
	}
	held := fitSoftmax(synthPairs(r, 200, dim), dim, 1e-3, map[int]float64{2: -1})
	if held[2] != -1 || held[1] <= 0 {
		t.Errorf("weights %v: want feature 2 held at -1 and the signal still fitted", held[:3])
	}
}

func TestSolveSPD(t *testing.T) {
	h := [][]float64{{4, 1}, {1, 3}}
	x := solveSPD(h, []float64{1, 2})
	for i, row := range h {
		if got := row[0]*x[0] + row[1]*x[1]; math.Abs(got-[]float64{1, 2}[i]) > 1e-9 {
			t.Errorf("row %d: h·x = %v, want %v", i, got, []float64{1, 2}[i])
		}
	}
}

func TestFoldsSplitByAbstract(t *testing.T) {
	seen := map[int]bool{}
	for _, id := range []string{"13734012", "4983", "5836", "7912", "18670", "19238", "22080", "31715"} {
		f := foldOf(id, 5)
		if f != foldOf(id, 5) || f < 0 || f >= 5 {
			t.Fatalf("fold of %s is %d, not stable in [0,5)", id, f)
		}
		seen[f] = true
	}
	if len(seen) < 3 {
		t.Errorf("8 abstracts fell in %d folds", len(seen))
	}
}
