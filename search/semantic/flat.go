package semantic

import (
	"cmp"
	"fmt"
	"math/bits"
	"runtime"
	"slices"
	"sync"
)

// Hit is a document and its similarity to a query.
type Hit struct {
	Doc   int
	Score float32
}

// Flat holds a Vec per document number and finds the nearest to a query
// by scoring them all. Vectors sit in one slab, so a scan reads memory in
// order. Flat is safe for concurrent use.
type Flat struct {
	mu     sync.RWMutex
	dims   int
	bits   int
	stride int
	codes  []byte    // len(docs) x stride
	signs  []byte    // len(docs) x signLen: bit j set if dimension j is positive
	inv    []float32 // per slot
	docs   []int     // per slot
	slot   map[int]int
}

const (
	// parallelMin is the set size from which TopK splits the scan over
	// GOMAXPROCS goroutines; below it a goroutine costs more than it saves.
	parallelMin = 16384
	// coarseMin is the set size from which TopK scores sign bits first and
	// rescores only the best few: at 1M papers the exact scan alone takes
	// 70 ms on two idle cores and three times that on busy ones, while at
	// 100k the coarse stage saves a fifth of 16 ms (BenchmarkFlatRecall).
	coarseMin = 200_000
	// coarseKeep is how many papers the coarse stage passes on to be
	// rescored (recall against the exact scan: see BenchmarkFlatRecall).
	coarseKeep = 5000
)

// NewFlat returns an empty set of dims-dimensional vectors.
func NewFlat(dims int) (*Flat, error) {
	bits, err := vecBits(dims)
	if err != nil {
		return nil, err
	}
	return &Flat{dims: dims, bits: bits, stride: codeLen(dims, bits), slot: map[int]int{}}, nil
}

// Dims is the size of the vectors the set holds.
func (f *Flat) Dims() int { return f.dims }

// Len is the number of documents in the set.
func (f *Flat) Len() int {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return len(f.docs)
}

// Add sets doc's vector, replacing any it had. It fails with ErrDims if v
// has another size than the set.
func (f *Flat) Add(doc int, v Vec) error {
	if v.dims != f.dims {
		return fmt.Errorf("%w: a %d-dimension vector in a set of %d", ErrDims, v.dims, f.dims)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if s, ok := f.slot[doc]; ok {
		copy(f.codes[s*f.stride:], v.codes)
		copy(f.signs[s*f.signLen():], v.signs())
		f.inv[s] = v.inv
		return nil
	}
	f.slot[doc] = len(f.docs)
	f.docs = append(f.docs, doc)
	f.inv = append(f.inv, v.inv)
	f.codes = append(f.codes, v.codes...)
	f.signs = append(f.signs, v.signs()...)
	return nil
}

// Delete removes doc's vector and reports whether it had one.
func (f *Flat) Delete(doc int) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	s, ok := f.slot[doc]
	if !ok {
		return false
	}
	last := len(f.docs) - 1
	if s != last {
		copy(f.codes[s*f.stride:(s+1)*f.stride], f.codes[last*f.stride:])
		sl := f.signLen()
		copy(f.signs[s*sl:(s+1)*sl], f.signs[last*sl:])
		f.inv[s] = f.inv[last]
		f.docs[s] = f.docs[last]
		f.slot[f.docs[s]] = s
	}
	f.codes = f.codes[:last*f.stride]
	f.signs = f.signs[:last*f.signLen()]
	f.inv = f.inv[:last]
	f.docs = f.docs[:last]
	delete(f.slot, doc)
	return true
}

// Get returns doc's vector.
func (f *Flat) Get(doc int) (Vec, bool) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	s, ok := f.slot[doc]
	if !ok {
		return Vec{}, false
	}
	codes := append([]byte(nil), f.codes[s*f.stride:(s+1)*f.stride]...)
	return Vec{dims: f.dims, bits: f.bits, codes: codes, inv: f.inv[s]}, true
}

// TopK returns the k documents most similar to query, best first (ties by
// lower document number), among those filter accepts (all if filter is
// nil). filter may be called from several goroutines at once. It fails
// with ErrDims if query has another size than the set.
func (f *Flat) TopK(query []float32, k int, filter func(doc int) bool) ([]Hit, error) {
	if len(query) != f.dims {
		return nil, fmt.Errorf("%w: a %d-dimension query for a set of %d", ErrDims, len(query), f.dims)
	}
	if k <= 0 {
		return nil, nil
	}
	f.mu.RLock()
	defer f.mu.RUnlock()
	if len(f.docs) >= coarseMin && k < coarseKeep {
		return f.topKCoarse(query, k, coarseKeep, filter), nil
	}
	return f.topKExact(query, k, filter), nil
}

// parts splits n slots over goroutines, calls scan for each range and
// merges the k best.
func parts(n, k int, scan func(lo, hi int) topK) []Hit {
	p := 1
	if n >= parallelMin {
		p = runtime.GOMAXPROCS(0)
	}
	tops := make([]topK, p)
	var wg sync.WaitGroup
	for i := range p {
		wg.Go(func() { tops[i] = scan(n*i/p, n*(i+1)/p) })
	}
	wg.Wait()
	all := tops[0].hits
	for _, t := range tops[1:] {
		all = append(all, t.hits...)
	}
	slices.SortFunc(all, byScore)
	return all[:min(k, len(all))]
}

func (f *Flat) topKExact(query []float32, k int, filter func(int) bool) []Hit {
	return parts(len(f.docs), k, func(lo, hi int) topK {
		return f.scan(query, k, filter, lo, hi)
	})
}

// topKCoarse ranks every paper by the query's dot product with the
// paper's sign bits (a table lookup a byte: eight times less work than the
// codes), then rescores the best keep exactly. Hit.Doc carries the slot
// between the stages.
func (f *Flat) topKCoarse(query []float32, k, keep int, filter func(int) bool) []Hit {
	table := signTable(query)
	sl := f.signLen()
	cands := parts(len(f.docs), keep, func(lo, hi int) topK {
		t := topK{k: keep}
		for s := lo; s < hi; s++ {
			if filter != nil && !filter(f.docs[s]) {
				continue
			}
			var sum float32
			for i, b := range f.signs[s*sl : (s+1)*sl] {
				sum += table[i*256+int(b)]
			}
			t.push(Hit{Doc: s, Score: sum})
		}
		return t
	})
	t := topK{k: k}
	for _, c := range cands {
		codes := f.codes[c.Doc*f.stride : (c.Doc+1)*f.stride]
		var d float32
		if f.bits == 8 {
			d = dot8(query, codes)
		} else {
			d = dot4(query, codes)
		}
		t.push(Hit{Doc: f.docs[c.Doc], Score: d * f.inv[c.Doc]})
	}
	slices.SortFunc(t.hits, byScore)
	return t.hits
}

// signTable gives, for byte i of a sign code and its value b, the sum of
// the query's values at the dimensions whose bits are set in b.
func signTable(q []float32) []float32 {
	n := (len(q) + 7) / 8
	t := make([]float32, n*256)
	for i := range n {
		row := t[i*256 : (i+1)*256]
		for b := 1; b < 256; b++ {
			low := bits.TrailingZeros8(uint8(b))
			if j := i*8 + low; j < len(q) {
				row[b] = row[b&(b-1)] + q[j]
			} else {
				row[b] = row[b&(b-1)]
			}
		}
	}
	return t
}

func (f *Flat) signLen() int { return (f.dims + 7) / 8 }

// scan scores slots [lo, hi).
func (f *Flat) scan(query []float32, k int, filter func(int) bool, lo, hi int) topK {
	t := topK{k: k}
	for s := lo; s < hi; s++ {
		doc := f.docs[s]
		if filter != nil && !filter(doc) {
			continue
		}
		codes := f.codes[s*f.stride : (s+1)*f.stride]
		var d float32
		if f.bits == 8 {
			d = dot8(query, codes)
		} else {
			d = dot4(query, codes)
		}
		t.push(Hit{Doc: doc, Score: d * f.inv[s]})
	}
	return t
}

// byScore orders hits best first, ties by document number.
func byScore(a, b Hit) int {
	if c := cmp.Compare(b.Score, a.Score); c != 0 {
		return c
	}
	return cmp.Compare(a.Doc, b.Doc)
}

// topK keeps the k best hits seen in a min-heap (worst at the root).
type topK struct {
	k    int
	hits []Hit
}

func (t *topK) push(h Hit) {
	if len(t.hits) < t.k {
		t.hits = append(t.hits, h)
		t.up(len(t.hits) - 1)
		return
	}
	if byScore(h, t.hits[0]) >= 0 {
		return
	}
	t.hits[0] = h
	t.down(0)
}

func (t *topK) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if byScore(t.hits[i], t.hits[p]) <= 0 {
			return
		}
		t.hits[i], t.hits[p] = t.hits[p], t.hits[i]
		i = p
	}
}

func (t *topK) down(i int) {
	n := len(t.hits)
	for {
		w := i
		if l := 2*i + 1; l < n && byScore(t.hits[l], t.hits[w]) > 0 {
			w = l
		}
		if r := 2*i + 2; r < n && byScore(t.hits[r], t.hits[w]) > 0 {
			w = r
		}
		if w == i {
			return
		}
		t.hits[i], t.hits[w] = t.hits[w], t.hits[i]
		i = w
	}
}
