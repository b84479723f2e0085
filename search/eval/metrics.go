package eval

import (
	"math"
	"slices"
	"strings"
	"unicode"
)

// ndcgAt is BEIR's nDCG@k (trec_eval ndcg_cut): gain is the judgment,
// discount log2(rank+1), ideal DCG from the judgments.
func ndcgAt(k int, ranked []string, rel map[string]int) float64 {
	var dcg float64
	for i, id := range ranked[:min(k, len(ranked))] {
		dcg += float64(rel[id]) / math.Log2(float64(i)+2)
	}
	gains := make([]int, 0, len(rel))
	for _, g := range rel {
		gains = append(gains, g)
	}
	slices.Sort(gains)
	slices.Reverse(gains)
	var ideal float64
	for i, g := range gains[:min(k, len(gains))] {
		ideal += float64(g) / math.Log2(float64(i)+2)
	}
	if ideal == 0 {
		return 0
	}
	return dcg / ideal
}

// mrrAt is the reciprocal rank of the first relevant document in the top k.
func mrrAt(k int, ranked []string, rel map[string]int) float64 {
	for i, id := range ranked[:min(k, len(ranked))] {
		if rel[id] > 0 {
			return 1 / float64(i+1)
		}
	}
	return 0
}

// recallAt is the share of relevant documents found in the top k.
func recallAt(k int, ranked []string, rel map[string]int) float64 {
	if len(rel) == 0 {
		return 0
	}
	n := 0
	for _, id := range ranked[:min(k, len(ranked))] {
		if rel[id] > 0 {
			n++
		}
	}
	return float64(n) / float64(len(rel))
}

// tokenF1 is the F1 of the multisets of lower-cased letter-and-digit runs of
// a and b, as SciFact's answer check counts it.
func tokenF1(a, b string) float64 {
	ta, tb := tokens(a), tokens(b)
	if len(ta) == 0 || len(tb) == 0 {
		return 0
	}
	count := map[string]int{}
	for _, t := range tb {
		count[t]++
	}
	common := 0
	for _, t := range ta {
		if count[t] > 0 {
			count[t]--
			common++
		}
	}
	if common == 0 {
		return 0
	}
	p := float64(common) / float64(len(ta))
	r := float64(common) / float64(len(tb))
	return 2 * p * r / (p + r)
}

func tokens(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// percentile returns the p-th percentile (0..100) of sorted durations in ms.
func percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(p/100*float64(len(sorted)))) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}
