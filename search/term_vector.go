package search

import (
	"context"
	"math"
)

// TermVector is a paper's distinctive terms (analysed stems, as Similar
// uses them) weighted by saturated term frequency times idf and scaled to
// length 1: the cosine of two is how much of their vocabulary two papers
// share. A semantic model's embeddings can stand in for it wherever a paper
// vector is wanted. An unknown id is an error of kind NotFound.
func (ix *Index) TermVector(_ context.Context, id string) (map[string]float64, error) {
	st, release, err := ix.live()
	if err != nil {
		return nil, err
	}
	defer release()
	p, err := st.paper("term vector", id)
	if err != nil {
		return nil, err
	}
	groups, _, _ := st.distinctive(similarText(&p.Paper), true)
	v := make(map[string]float64, len(groups))
	var norm float64
	for _, g := range groups {
		v[g.alts[0].terms[0]] = g.weight
		norm += g.weight * g.weight
	}
	if norm > 0 {
		norm = math.Sqrt(norm)
		for k := range v {
			v[k] /= norm
		}
	}
	return v, nil
}
