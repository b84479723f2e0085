package search

import "slices"

// A query's alternatives: "ML for weather or climate" asks for papers on
// either, and a paper on weather forecasting covers it whole. So do "SepLLM
// vs LaCache" and "compare SepLLM and LaCache": each paper is half the
// answer, and no paper needs both. Each
// alternative stays a group of its own (ranked, shown and listed as
// missing as typed); only what counts as covered changes.

// linkEither numbers each run of groups joined by "or" ("weather or
// climate", "pruning or quantization or distillation") with one number
// above 0, in either.
func linkEither(groups []group) []group {
	next := 0
	for i := 1; i < len(groups); i++ {
		if !groups[i].orBefore {
			continue
		}
		if groups[i-1].either == 0 {
			next++
			groups[i-1].either = next
		}
		groups[i].either = groups[i-1].either
	}
	return groups
}

// eitherCredit is what groups weigh and are credited with towards a
// query's coverage, with alternatives joined by "or" one thing asked for:
// each credited as the best of them, and together weighing their mean
// weight, as one word would. A paper on quantization lacks only "LLMs" of
// "pruning or quantization of LLMs", as it does of "quantization of LLMs".
// When the query has no alternatives, weights is nil (each group weighs
// its own weight, see weightOf) and credits is credit.
func eitherCredit(groups []group, credit []float64) (weights, credits []float64) {
	if !hasEither(groups) {
		return nil, credit
	}
	weights, credits = make([]float64, len(groups)), slices.Clone(credit)
	for i, g := range groups {
		weights[i] = g.weight
		if g.either == 0 {
			continue
		}
		var sum float64
		n := 0
		for j, o := range groups {
			if o.either == g.either {
				credits[i] = max(credits[i], credit[j])
				sum += o.weight
				n++
			}
		}
		weights[i] = sum / float64(n*n) // n of them share the mean
	}
	return weights, credits
}

// weightOf is group i's weight from eitherCredit's weights.
func weightOf(groups []group, weights []float64, i int) float64 {
	if weights == nil {
		return groups[i].weight
	}
	return weights[i]
}

// eitherFound reports whether group gi, or an alternative joined to it by
// "or", is found (found(j) for group j).
func eitherFound(groups []group, gi int, found func(j int) bool) bool {
	if found(gi) {
		return true
	}
	for j, o := range groups {
		if j != gi && groups[gi].either != 0 && o.either == groups[gi].either && found(j) {
			return true
		}
	}
	return false
}

// hasEither reports whether the query has alternatives joined by "or".
func hasEither(groups []group) bool {
	for _, g := range groups {
		if g.either != 0 {
			return true
		}
	}
	return false
}
