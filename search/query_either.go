package search

import "slices"

// A query's alternatives: "ML for weather or climate" asks for papers on
// either, and a paper on weather forecasting covers it whole. So do "SepLLM
// vs LaCache" and "compare SepLLM and LaCache": each paper is half the
// answer, and no paper needs both. An alternative is the phrase typed on
// its side of "or": "fish stock assessment or fisheries management" is
// two, and a paper with "assessment" alone has little of either. Each
// word stays a group of its own (ranked, shown and listed as missing as
// typed); only what counts as covered changes.

// linkEither numbers each set of alternatives ("weather or climate",
// "pruning or quantization or distillation") in either, 1, 2, … in the
// order typed, and each alternative's groups with its side, from 0.
func linkEither(groups []group) []group {
	next := 0
	for i := 1; i < len(groups); i++ {
		if !groups[i].orBefore {
			continue
		}
		set, side := groups[i-1].either, groups[i-1].side+1
		if set == 0 {
			next++
			set, side = next, 1
			for j := i - 1; j >= 0 && groups[j].either == 0; j-- { // the phrase before "or"
				groups[j].either, groups[j].side = set, 0
				if groups[j].apart {
					break
				}
			}
		}
		for k := i; k < len(groups) && (k == i || !groups[k].apart && !groups[k].orBefore); k++ {
			groups[k].either, groups[k].side = set, side
		}
	}
	return groups
}

// eitherCredit is what groups weigh and are credited with towards a
// query's coverage, each set of alternatives one thing asked for: its
// groups are credited with the best alternative's share (its words'
// idf-weighted credit), and together weigh the alternatives' mean weight.
// A paper on quantization lacks only "LLMs" of "pruning or quantization
// of LLMs", as it does of "quantization of LLMs". When the query has no
// alternatives, weights is nil (each group weighs its own weight, see
// weightOf) and credits is credit. Derived on each call, not kept on the
// groups: looseGroups and withoutUnheldLink change a query's groups after
// linkEither, and weights kept from it went stale there.
func eitherCredit(groups []group, credit []float64) (weights, credits []float64) {
	if !hasEither(groups) {
		return nil, credit
	}
	weights, credits = make([]float64, len(groups)), slices.Clone(credit)
	last := 0 // the highest set number; a set dropped later leaves a gap
	for i, g := range groups {
		weights[i] = g.weight
		last = max(last, g.either)
	}
	for set := 1; set <= last; set++ {
		var sides []sideShare
		members := 0
		for i, g := range groups {
			if g.either != set {
				continue
			}
			for len(sides) <= g.side {
				sides = append(sides, sideShare{})
			}
			sides[g.side].weight += g.weight
			sides[g.side].got += g.weight * credit[i]
			members++
		}
		if members == 0 {
			continue
		}
		var total, best float64
		for _, sd := range sides {
			total += sd.weight
			if sd.weight > 0 {
				best = max(best, sd.got/sd.weight)
			}
		}
		for i, g := range groups {
			if g.either == set {
				weights[i] = total / float64(len(sides)) / float64(members) // the mean alternative, shared
				credits[i] = best
			}
		}
	}
	return weights, credits
}

// sideShare sums one alternative's weight, and its weight times credit.
type sideShare struct{ weight, got float64 }

// weightOf is group i's weight from eitherCredit's weights.
func weightOf(groups []group, weights []float64, i int) float64 {
	if weights == nil {
		return groups[i].weight
	}
	return weights[i]
}

// eitherFound reports whether group gi, or another group of its set of
// alternatives, is found (found(j) for group j).
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

// hasEither reports whether the query has a set of alternatives.
func hasEither(groups []group) bool {
	for _, g := range groups {
		if g.either != 0 {
			return true
		}
	}
	return false
}
