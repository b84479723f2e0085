package search

import (
	"context"
	"errors"
	"math"
	"testing"
)

// TestTermVector: a paper's vector has length 1 and is nearer the paper
// Similar ranks first than the one it ranks last; an unknown ID is NotFound.
func TestTermVector(t *testing.T) {
	ix, c := seedIndex(t)
	ctx := context.Background()
	id := c.Papers[0].ID
	v, err := ix.TermVector(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var norm float64
	for _, w := range v {
		norm += w * w
	}
	if math.Abs(norm-1) > 1e-9 || len(v) < 10 {
		t.Fatalf("vector of %s: %d terms, squared length %f", id, len(v), norm)
	}
	res, err := ix.Similar(ctx, id, 50)
	if err != nil || len(res.Results) < 10 {
		t.Fatalf("similar: %v", err)
	}
	cos := func(other string) float64 {
		o, err := ix.TermVector(ctx, other)
		if err != nil {
			t.Fatal(err)
		}
		var dot float64
		for k, w := range v {
			dot += w * o[k]
		}
		return dot
	}
	first, last := cos(res.Results[0].ID), cos(res.Results[len(res.Results)-1].ID)
	if first <= last {
		t.Errorf("cosine to the most similar paper %.3f, to the least %.3f", first, last)
	}
	if _, err := ix.TermVector(ctx, "nope0000"); !errors.Is(err, NotFound) {
		t.Errorf("unknown paper: %v", err)
	}
}
