package semantic

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// exactTop ranks docs by Vec.Dot, the order TopK must reproduce.
func exactTop(vecs map[int]Vec, q []float32, k int, keep func(int) bool) []Hit {
	var all []Hit
	for doc, v := range vecs {
		if keep == nil || keep(doc) {
			all = append(all, Hit{doc, v.Dot(q)})
		}
	}
	slices.SortFunc(all, byScore)
	return all[:min(k, len(all))]
}

func newTestFlat(t *testing.T, rng *rand.Rand, n, dims int) (*Flat, map[int]Vec) {
	t.Helper()
	f, err := NewFlat(dims)
	if err != nil {
		t.Fatal(err)
	}
	vecs := map[int]Vec{}
	for i, v := range randomUnit(rng, n, dims) {
		q, err := Quantize(v)
		if err != nil {
			t.Fatal(err)
		}
		doc := 3*i + 1
		if err := f.Add(doc, q); err != nil {
			t.Fatal(err)
		}
		vecs[doc] = q
	}
	return f, vecs
}

func TestFlatTopKMatchesExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, c := range []struct {
		name string
		n    int
		dims int
	}{
		{"small 8-bit", 500, 256},
		{"parallel 8-bit", parallelMin + 77, 64},
		{"4-bit", 300, 600},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, vecs := newTestFlat(t, rng, c.n, c.dims)
			q := randomUnit(rng, 1, c.dims)[0]
			even := func(doc int) bool { return doc%2 == 0 }
			for _, k := range []int{1, 10, 100} {
				for _, keep := range []func(int) bool{nil, even} {
					got, err := f.TopK(q, k, keep)
					if err != nil {
						t.Fatal(err)
					}
					if want := exactTop(vecs, q, k, keep); !slices.Equal(got, want) {
						t.Fatalf("k=%d: TopK = %v\nwant %v", k, got[:min(3, len(got))], want[:min(3, len(want))])
					}
				}
			}
		})
	}
}

func TestFlatAddReplaceDelete(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	f, vecs := newTestFlat(t, rng, 50, 32)
	q := randomUnit(rng, 1, 32)[0]
	best, _ := f.TopK(q, 1, nil)

	// Giving another document the query's own direction makes it first.
	same, _ := Quantize(q)
	if err := f.Add(4, same); err != nil {
		t.Fatal(err)
	}
	if top, _ := f.TopK(q, 1, nil); top[0].Doc != 4 || f.Len() != 50 {
		t.Fatalf("after replacing doc 4: top %v, %d docs", top, f.Len())
	}
	vecs[4] = same

	if !f.Delete(4) || f.Delete(4) {
		t.Fatal("Delete(4) twice should report true then false")
	}
	delete(vecs, 4)
	if top, _ := f.TopK(q, 1, nil); top[0] != best[0] && best[0].Doc != 4 {
		t.Fatalf("after delete: top %v, want %v", top, best)
	}
	if _, ok := f.Get(4); ok {
		t.Error("Get(4) after Delete")
	}
	for doc, v := range vecs {
		got, ok := f.Get(doc)
		if !ok || got.Dot(q) != v.Dot(q) {
			t.Fatalf("Get(%d) after a delete moved slots: %v", doc, ok)
		}
	}
	if all, _ := f.TopK(q, 1000, nil); len(all) != len(vecs) {
		t.Errorf("TopK(1000) = %d hits, want %d", len(all), len(vecs))
	}
}

func TestFlatRejectsOtherSizes(t *testing.T) {
	f, err := NewFlat(16)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := Quantize(make([]float32, 8))
	if err := f.Add(1, v); !errors.Is(err, ErrDims) {
		t.Errorf("Add of 8 dims to 16: %v", err)
	}
	if _, err := f.TopK(make([]float32, 8), 5, nil); !errors.Is(err, ErrDims) {
		t.Errorf("TopK with 8 dims on 16: %v", err)
	}
	if _, err := NewFlat(MaxVecDims4 + 1); !errors.Is(err, ErrDims) {
		t.Errorf("NewFlat(%d): %v", MaxVecDims4+1, err)
	}
}

func TestFlatCoarseStage(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	f, vecs := newTestFlat(t, rng, coarseMin, 32)
	for i := range 20 {
		doc := 3*(i*997%coarseMin) + 1
		q := vecs[doc].Float32()
		got, err := f.TopK(q, 10, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got[0].Doc != doc {
			t.Errorf("query on doc %d's own vector: first hit %v", doc, got[0])
		}
		if !slices.IsSortedFunc(got, byScore) || len(got) != 10 {
			t.Errorf("hits not sorted or not 10: %v", got)
		}
		for _, h := range got {
			if h.Score != vecs[h.Doc].Dot(q) {
				t.Fatalf("hit %v: score is not the exact Dot %v", h, vecs[h.Doc].Dot(q))
			}
		}
		if odd, _ := f.TopK(q, 10, func(d int) bool { return d != doc }); odd[0].Doc == doc {
			t.Errorf("filter let doc %d through the coarse stage", doc)
		}
	}
}
