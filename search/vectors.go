package search

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// paperVectors holds one meaning vector per paper, made by one model and
// quantised to a byte a dimension with a scale per paper: 256 + 4 bytes a
// paper at 256 dimensions, plus its ID and 8 bytes of index. Papers are
// numbered in the order they were added; byID orders them by ID for
// lookups. It is immutable once sealed; a change makes a new one (with).
type paperVectors struct {
	model  string // the Embedder's ModelID
	dims   int
	idEnd  []uint32 // paper i's ID is ids[idEnd[i-1]:idEnd[i]]
	ids    []byte
	scales []float32
	codes  []byte  // int8 values, len(scales) x dims
	byID   []int32 // paper numbers in ID order
	// signs are each paper's signs, a bit a dimension, for the coarse
	// pass of nearest over large sets; nil below coarseMin papers.
	signs []uint64
}

// coarseMin is the set size from which nearest first compares signs and
// scores only the coarseKeep papers that agree most with the query: at a
// million papers the full scan takes about 400 ms on two busy cores, the
// two passes 13 ms, with 0.955 of the full scan's ten nearest found
// (BenchmarkNearest, TestCoarseNearestRecall).
const (
	coarseMin  = 200_000
	coarseKeep = 20000
)

func newPaperVectors(model string, dims, capacity int) *paperVectors {
	return &paperVectors{model: model, dims: dims, idEnd: make([]uint32, 0, capacity), ids: make([]byte, 0, capacity*8),
		scales: make([]float32, 0, capacity), codes: make([]byte, 0, capacity*dims)}
}

// add appends paper id's vector v (of dims floats, L2-normalised); a zero
// vector (a text the model knows nothing of) stays zero. seal must follow
// the last add.
func (pv *paperVectors) add(id string, v []float32) {
	pv.ids = append(pv.ids, id...)
	pv.idEnd = append(pv.idEnd, uint32(len(pv.ids)))
	var scale float32
	pv.codes, scale = quantize(pv.codes, v)
	pv.scales = append(pv.scales, scale)
}

// quantize appends v's codes to dst, int8 values with v's largest
// magnitude at 127, and returns them with their scale; a zero vector
// stays zero.
func quantize[T byte | int8](dst []T, v []float32) ([]T, float32) {
	var top float32
	for _, x := range v {
		top = max(top, float32(math.Abs(float64(x))))
	}
	scale := top / 127
	for _, x := range v {
		var c int8
		if scale > 0 {
			c = int8(math.Round(float64(x / scale)))
		}
		dst = append(dst, T(c))
	}
	return dst, scale
}

// seal orders the papers by ID for pos and returns pv.
func (pv *paperVectors) seal() *paperVectors {
	pv.byID = make([]int32, pv.len())
	for i := range pv.byID {
		pv.byID[i] = int32(i)
	}
	slices.SortFunc(pv.byID, func(a, b int32) int { return strings.Compare(pv.id(int(a)), pv.id(int(b))) })
	pv.makeSigns()
	return pv
}

// signWords is how many 64-bit words hold a paper's signs.
func (pv *paperVectors) signWords() int { return (pv.dims + 63) / 64 }

// makeSigns fills signs for a large set.
func (pv *paperVectors) makeSigns() {
	if pv.len() < coarseMin {
		return
	}
	w := pv.signWords()
	pv.signs = make([]uint64, pv.len()*w)
	for i := range pv.len() {
		for j, c := range pv.codes[i*pv.dims : (i+1)*pv.dims] {
			if int8(c) > 0 {
				pv.signs[i*w+j/64] |= 1 << (j % 64)
			}
		}
	}
}

// coarse returns the papers whose signs agree most with q's, about
// coarseKeep of them, in paper order.
func (pv *paperVectors) coarse(q queryVec) []int {
	w := pv.signWords()
	qs := make([]uint64, w)
	for j, x := range q.q {
		if x > 0 {
			qs[j/64] |= 1 << (j % 64)
		}
	}
	n := pv.len()
	agree := make([]uint16, n)
	var hist [4097]int
	for i := range n {
		d := 0
		for k, x := range pv.signs[i*w : (i+1)*w] {
			d += bits.OnesCount64(x ^ qs[k])
		}
		a := pv.dims - d
		agree[i] = uint16(a)
		hist[a]++
	}
	cut, kept := pv.dims, 0
	for ; cut > 0 && kept+hist[cut] < coarseKeep; cut-- {
		kept += hist[cut]
	}
	out := make([]int, 0, kept+hist[cut])
	for i, a := range agree {
		if int(a) >= cut {
			out = append(out, i)
		}
	}
	return out
}

func (pv *paperVectors) len() int {
	if pv == nil {
		return 0
	}
	return len(pv.scales)
}

// id is paper i's ID.
func (pv *paperVectors) id(i int) string {
	start := uint32(0)
	if i > 0 {
		start = pv.idEnd[i-1]
	}
	return string(pv.ids[start:pv.idEnd[i]])
}

// pos is the number of paper id, if it has a vector.
func (pv *paperVectors) pos(id string) (int, bool) {
	if pv == nil {
		return 0, false
	}
	k, ok := slices.BinarySearchFunc(pv.byID, id, func(i int32, id string) int { return strings.Compare(pv.id(int(i)), id) })
	if !ok {
		return 0, false
	}
	return int(pv.byID[k]), true
}

// queryVec is a query vector quantised like the papers', so that a cosine is
// a sum of integer products.
type queryVec struct {
	q     []int8
	scale float32
}

func quantizeQuery(v []float32) queryVec {
	var q queryVec
	q.q, q.scale = quantize(make([]int8, 0, len(v)), v)
	return q
}

// cos is the cosine of paper i with the query.
func (pv *paperVectors) cos(i int, q queryVec) float64 {
	row := pv.codes[i*pv.dims : (i+1)*pv.dims : (i+1)*pv.dims]
	qq := q.q[:len(row)]
	var s0, s1, s2, s3 int32
	j := 0
	for ; j+3 < len(row); j += 4 {
		s0 += int32(int8(row[j])) * int32(qq[j])
		s1 += int32(int8(row[j+1])) * int32(qq[j+1])
		s2 += int32(int8(row[j+2])) * int32(qq[j+2])
		s3 += int32(int8(row[j+3])) * int32(qq[j+3])
	}
	for ; j < len(row); j++ {
		s0 += int32(int8(row[j])) * int32(qq[j])
	}
	return float64(s0+s1+s2+s3) * float64(pv.scales[i]) * float64(q.scale)
}

// cosOf is the cosine of paper id with q; ok is false for a paper without
// a vector.
func (pv *paperVectors) cosOf(id string, q queryVec) (float64, bool) {
	i, ok := pv.pos(id)
	if !ok {
		return 0, false
	}
	return pv.cos(i, q), true
}

// near is a paper by its number and its cosine with a query.
type near struct {
	i   int
	cos float64
}

// nearestSplit is the fewest papers a goroutine of nearest scores: below
// it the start-up costs more than the split saves.
const nearestSplit = 20000

// nearest returns the k papers closest to q, closest first, skipping
// those keep rejects (nil keeps all). It scores every paper, split over
// the cores for large sets.
func (pv *paperVectors) nearest(q queryVec, k int, keep func(id string) bool) []near {
	n := pv.len()
	if n == 0 || k <= 0 || len(q.q) != pv.dims {
		return nil
	}
	var only []int // the coarse pass's papers; nil: all
	if pv.signs != nil {
		only = pv.coarse(q)
		n = len(only)
	}
	parts := min(runtime.GOMAXPROCS(0), max(1, n/nearestSplit))
	tops := make([][]near, parts)
	var wg sync.WaitGroup
	for p := range parts {
		lo, hi := p*n/parts, (p+1)*n/parts
		wg.Go(func() { tops[p] = pv.topIn(q, k, lo, hi, only, keep) })
	}
	wg.Wait()
	all := slices.Concat(tops...)
	sortNear(all)
	return all[:min(k, len(all))]
}

// topIn keeps the k best of papers lo..hi (of only, if set) in a small
// sorted slice.
func (pv *paperVectors) topIn(q queryVec, k, lo, hi int, only []int, keep func(id string) bool) []near {
	top := make([]near, 0, k+1)
	for x := lo; x < hi; x++ {
		i := x
		if only != nil {
			i = only[x]
		}
		c := pv.cos(i, q)
		if len(top) == k && c <= top[k-1].cos {
			continue
		}
		if keep != nil && !keep(pv.id(i)) {
			continue
		}
		at := len(top)
		for at > 0 && top[at-1].cos < c {
			at--
		}
		top = slices.Insert(top, at, near{i, c})
		if len(top) > k {
			top = top[:k]
		}
	}
	return top
}

func sortNear(ns []near) {
	slices.SortStableFunc(ns, func(a, b near) int {
		switch {
		case a.cos > b.cos:
			return -1
		case a.cos < b.cos:
			return 1
		}
		return a.i - b.i
	})
}

// vector is paper i's vector, dequantised.
func (pv *paperVectors) vector(i int) []float32 {
	v := make([]float32, pv.dims)
	for j, c := range pv.codes[i*pv.dims : (i+1)*pv.dims] {
		v[j] = float32(int8(c)) * pv.scales[i]
	}
	return v
}

// with returns the vectors after a change: those of del and of add's
// papers removed, add's appended (their codes as they are). pv and add are
// unchanged; add may be nil.
func (pv *paperVectors) with(add *paperVectors, del []string) *paperVectors {
	gone := make(map[string]bool, len(del)+add.len())
	for _, id := range del {
		gone[id] = true
	}
	for i := range add.len() {
		gone[add.id(i)] = true
	}
	next := newPaperVectors(pv.model, pv.dims, pv.len()+add.len())
	for _, from := range []*paperVectors{pv, add} {
		for i := range from.len() {
			id := from.id(i)
			if from == pv && gone[id] {
				continue
			}
			next.ids = append(next.ids, id...)
			next.idEnd = append(next.idEnd, uint32(len(next.ids)))
			next.scales = append(next.scales, from.scales[i])
			next.codes = append(next.codes, from.codes[i*from.dims:(i+1)*from.dims]...)
		}
	}
	return next.seal()
}

// vectorsMagic starts the encoding, version 2: columns, so that the codes
// are used where the file was read, without a copy.
const vectorsMagic = "PBVECS02"

var errDamagedVectors = errors.New("damaged paper vectors")

// encode writes the vectors: magic, model, dims, count, then the ID ends,
// the IDs, the ID order, the scales and the codes, and a CRC-32 of it all.
func (pv *paperVectors) encode() []byte {
	n := pv.len()
	out := make([]byte, 0, 64+len(pv.model)+n*(12+4)+len(pv.ids)+len(pv.codes))
	out = append(out, vectorsMagic...)
	out = binary.AppendUvarint(out, uint64(len(pv.model)))
	out = append(out, pv.model...)
	out = binary.AppendUvarint(out, uint64(pv.dims))
	out = binary.AppendUvarint(out, uint64(n))
	for _, e := range pv.idEnd {
		out = binary.LittleEndian.AppendUint32(out, e)
	}
	out = append(out, pv.ids...)
	for _, i := range pv.byID {
		out = binary.LittleEndian.AppendUint32(out, uint32(i))
	}
	for _, s := range pv.scales {
		out = binary.LittleEndian.AppendUint32(out, math.Float32bits(s))
	}
	out = append(out, pv.codes...)
	return binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(out))
}

// decodeVectors reads an encoding; the codes stay in b.
func decodeVectors(b []byte) (*paperVectors, error) {
	if len(b) < len(vectorsMagic)+4 || string(b[:len(vectorsMagic)]) != vectorsMagic {
		return nil, errDamagedVectors
	}
	body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return nil, errDamagedVectors
	}
	rest := body[len(vectorsMagic):]
	uv := func() (int, bool) {
		v, k := binary.Uvarint(rest)
		if k <= 0 || v > math.MaxInt32 {
			return 0, false
		}
		rest = rest[k:]
		return int(v), true
	}
	take := func(n int) ([]byte, bool) {
		if n < 0 || n > len(rest) {
			return nil, false
		}
		out := rest[:n:n]
		rest = rest[n:]
		return out, true
	}
	ml, ok1 := uv()
	model, ok2 := take(ml)
	dims, ok3 := uv()
	n, ok4 := uv()
	if !ok1 || !ok2 || !ok3 || !ok4 || dims == 0 || dims > 4096 || n > len(rest)/(dims+12) {
		return nil, errDamagedVectors
	}
	pv := &paperVectors{model: string(model), dims: dims, idEnd: make([]uint32, n), byID: make([]int32, n), scales: make([]float32, n)}
	ends, ok := take(4 * n)
	if !ok {
		return nil, errDamagedVectors
	}
	last := uint32(0)
	for i := range pv.idEnd {
		e := binary.LittleEndian.Uint32(ends[4*i:])
		if e < last {
			return nil, errDamagedVectors
		}
		pv.idEnd[i], last = e, e
	}
	if pv.ids, ok = take(int(last)); !ok {
		return nil, errDamagedVectors
	}
	order, ok1 := take(4 * n)
	scales, ok2 := take(4 * n)
	codes, ok3 := take(n * dims)
	if !ok1 || !ok2 || !ok3 || len(rest) != 0 {
		return nil, errDamagedVectors
	}
	for i := range pv.byID {
		j := binary.LittleEndian.Uint32(order[4*i:])
		s := math.Float32frombits(binary.LittleEndian.Uint32(scales[4*i:]))
		if int(j) >= n || math.IsNaN(float64(s)) || math.IsInf(float64(s), 0) || s < 0 {
			return nil, errDamagedVectors
		}
		pv.byID[i], pv.scales[i] = int32(j), s
	}
	for i := 1; i < n; i++ { // the order must be the IDs' (pos searches it)
		if pv.id(int(pv.byID[i-1])) >= pv.id(int(pv.byID[i])) {
			return nil, errDamagedVectors
		}
	}
	pv.codes = codes
	pv.makeSigns()
	return pv, nil
}

// vectorsPrefix starts the names of vector files in an index directory.
const vectorsPrefix = "paperbot-vectors-"

// writeVectors writes pv to a new synced file in dir and returns its name.
func writeVectors(dir string, pv *paperVectors) (string, error) {
	return writeSidecar(dir, vectorsPrefix, "paper vectors", pv.encode())
}
