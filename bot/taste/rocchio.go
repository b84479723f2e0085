package taste

import (
	"math"
	"slices"

	"github.com/paperbot/paperbot/search"
)

// Vector is a sparse paper vector of length 1 (or empty).
type Vector map[string]float64

// Vectors gives a paper's vector by ID.
type Vectors interface {
	Vector(id string) (Vector, error)
}

// Tuning weighs the parts of the ranking.
type Tuning struct {
	// Liked and Disliked weigh the centroids of the liked and disliked
	// papers in the profile (Rocchio's beta and gamma).
	Liked, Disliked float64
	// Blend is how much the profile counts beside the topic relevance (a
	// paper's score relative to the topic's best, 0..1): per standard
	// deviation of the candidates' cosines to the profile. The candidates
	// all match the topic, so what sets a paper apart is how much closer to
	// the profile it is than they are on average, not the cosine itself.
	Blend float64
}

// DefaultTuning was chosen on the simulated channels of the ICLR keywords'
// train split (TestTasteLearns prints the figures), not on the test split.
var DefaultTuning = Tuning{Liked: 1, Disliked: 0.25, Blend: 0.1}

// minBecause is the cosine a liked paper must reach to be named as the
// reason a paper moved up.
const minBecause = 0.1

// Profile is what a channel's votes say it wants. The zero value wants
// nothing in particular: Rerank keeps the topic's order.
type Profile struct {
	t     Tuning
	v     Vector
	liked map[string]Vector // liked paper ID → its vector, for "because"
}

// Learn builds a profile from the IDs of liked and disliked papers; papers
// without a vector (gone from the index) are skipped.
func Learn(t Tuning, vs Vectors, liked, disliked []string) Profile {
	p := Profile{t: t, v: Vector{}, liked: map[string]Vector{}}
	add := func(ids []string, weight float64, keep bool) {
		var got []Vector
		for _, id := range ids {
			if v, err := vs.Vector(id); err == nil && len(v) > 0 {
				got = append(got, v)
				if keep {
					p.liked[id] = v
				}
			}
		}
		for _, v := range got {
			for t, w := range v {
				p.v[t] += weight * w / float64(len(got))
			}
		}
	}
	add(liked, t.Liked, true)
	add(disliked, -t.Disliked, false)
	return p
}

// Empty reports whether the profile has nothing to go on.
func (p Profile) Empty() bool { return len(p.v) == 0 }

// Ranked is a candidate as the profile ranks it.
type Ranked struct {
	search.Result
	// Was is the candidate's place in the topic's own order (0-based).
	Was int
	// Because is the liked paper most like this one, when the votes moved it
	// up and that paper is close enough to say so; "" otherwise.
	Because string
}

// Rerank orders cands (the topic's results, best first) by their relevance
// to the topic blended with their cosine to the profile. Nothing is added or
// dropped. Ties keep the topic's order.
func (p Profile) Rerank(vs Vectors, cands []search.Result) []Ranked {
	out := make([]Ranked, len(cands))
	scores := make([]float64, len(cands))
	top := 0.0
	for _, c := range cands {
		top = max(top, c.Score)
	}
	vecs := make([]Vector, len(cands))
	cos := make([]float64, len(cands))
	var sum, sumSq float64
	n := 0
	for i, c := range cands {
		out[i] = Ranked{Result: c, Was: i}
		rel := 1 - float64(i)/float64(len(cands)) // without scores, the order says it
		if top > 0 {
			rel = c.Score / top
		}
		scores[i] = rel
		if p.Empty() {
			continue
		}
		if v, err := vs.Vector(c.ID); err == nil {
			vecs[i] = v
			cos[i] = cosine(p.v, v)
			sum += cos[i]
			sumSq += cos[i] * cos[i]
			n++
		}
	}
	if n > 1 {
		mean := sum / float64(n)
		if sd := math.Sqrt(max(0, sumSq/float64(n)-mean*mean)); sd > 0 {
			for i := range cands {
				if vecs[i] != nil {
					scores[i] += p.t.Blend * (cos[i] - mean) / sd
				}
			}
		}
	}
	idx := make([]int, len(cands))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case scores[a] > scores[b]:
			return -1
		case scores[a] < scores[b]:
			return 1
		}
		return 0
	})
	ranked := make([]Ranked, len(cands))
	for pos, i := range idx {
		ranked[pos] = out[i]
		if pos < i && vecs[i] != nil {
			ranked[pos].Because = p.closestLiked(out[i].ID, vecs[i])
		}
	}
	return ranked
}

// closestLiked is the liked paper (other than paper id itself) whose vector
// is nearest v, if near enough.
func (p Profile) closestLiked(id string, v Vector) string {
	best, bestID := minBecause, ""
	ids := make([]string, 0, len(p.liked))
	for liked := range p.liked {
		if liked != id {
			ids = append(ids, liked)
		}
	}
	slices.Sort(ids) // the same answer every time
	for _, liked := range ids {
		if c := cosine(p.liked[liked], v); c >= best {
			best, bestID = c, liked
		}
	}
	return bestID
}

// cosine of a and b: the profile's length does not change what the blend
// weighs, however many votes made it.
func cosine(a, b Vector) float64 {
	if len(a) > len(b) {
		a, b = b, a
	}
	var dot, na, nb float64
	for t, w := range a {
		dot += w * b[t]
		na += w * w
	}
	for _, w := range b {
		nb += w * w
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}
