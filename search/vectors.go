package search

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"maps"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// paperVectors holds one meaning vector per paper, made by one model and
// quantised to a byte a dimension with a scale per paper (dims+4 bytes a
// paper: 260 at 256 dimensions). It is immutable once built; a change makes
// a new one (with).
type paperVectors struct {
	model  string // the Embedder's ModelID
	dims   int
	ids    []string
	pos    map[string]int32
	scales []float32
	codes  []int8 // len(ids) x dims
}

func newPaperVectors(model string, dims, capacity int) *paperVectors {
	return &paperVectors{model: model, dims: dims, ids: make([]string, 0, capacity), pos: make(map[string]int32, capacity),
		scales: make([]float32, 0, capacity), codes: make([]int8, 0, capacity*dims)}
}

// add appends paper id's vector v (of v.dims floats, L2-normalised); a zero
// vector (a text the model knows nothing of) is kept as zero.
func (pv *paperVectors) add(id string, v []float32) {
	var top float32
	for _, x := range v {
		top = max(top, float32(math.Abs(float64(x))))
	}
	scale := top / 127
	pv.pos[id] = int32(len(pv.ids))
	pv.ids = append(pv.ids, id)
	pv.scales = append(pv.scales, scale)
	for _, x := range v {
		var c int8
		if scale > 0 {
			c = int8(math.Round(float64(x / scale)))
		}
		pv.codes = append(pv.codes, c)
	}
}

func (pv *paperVectors) len() int {
	if pv == nil {
		return 0
	}
	return len(pv.ids)
}

// cos is the cosine of paper i with the normalised query q.
func (pv *paperVectors) cos(i int, q []float32) float64 {
	row := pv.codes[i*pv.dims : (i+1)*pv.dims : (i+1)*pv.dims]
	q = q[:len(row)]
	var s0, s1, s2, s3 float32
	for j := 0; j+3 < len(row); j += 4 {
		s0 += float32(row[j]) * q[j]
		s1 += float32(row[j+1]) * q[j+1]
		s2 += float32(row[j+2]) * q[j+2]
		s3 += float32(row[j+3]) * q[j+3]
	}
	for j := len(row) &^ 3; j < len(row); j++ {
		s0 += float32(row[j]) * q[j]
	}
	return float64((s0 + s1 + s2 + s3) * pv.scales[i])
}

// cosOf is the cosine of paper id with q; ok is false for a paper without
// a vector.
func (pv *paperVectors) cosOf(id string, q []float32) (float64, bool) {
	if pv == nil {
		return 0, false
	}
	i, ok := pv.pos[id]
	if !ok {
		return 0, false
	}
	return pv.cos(int(i), q), true
}

// near is a paper by its position and its cosine with a query.
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
func (pv *paperVectors) nearest(q []float32, k int, keep func(id string) bool) []near {
	n := pv.len()
	if n == 0 || k <= 0 || len(q) != pv.dims {
		return nil
	}
	parts := min(runtime.GOMAXPROCS(0), max(1, n/nearestSplit))
	tops := make([][]near, parts)
	var wg sync.WaitGroup
	for p := range parts {
		lo, hi := p*n/parts, (p+1)*n/parts
		wg.Add(1)
		go func() {
			defer wg.Done()
			tops[p] = pv.topIn(q, k, lo, hi, keep)
		}()
	}
	wg.Wait()
	all := slices.Concat(tops...)
	sortNear(all)
	return all[:min(k, len(all))]
}

// topIn keeps the k best of papers lo..hi in a small sorted slice.
func (pv *paperVectors) topIn(q []float32, k, lo, hi int, keep func(id string) bool) []near {
	top := make([]near, 0, k+1)
	for i := lo; i < hi; i++ {
		c := pv.cos(i, q)
		if len(top) == k && c <= top[k-1].cos {
			continue
		}
		if keep != nil && !keep(pv.ids[i]) {
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
		v[j] = float32(c) * pv.scales[i]
	}
	return v
}

// with returns the vectors after a change: those of del removed, set's
// added or replaced. pv is unchanged.
func (pv *paperVectors) with(set map[string][]float32, del []string) *paperVectors {
	gone := make(map[string]bool, len(del)+len(set))
	for _, id := range del {
		gone[id] = true
	}
	for id := range set {
		gone[id] = true
	}
	next := newPaperVectors(pv.model, pv.dims, pv.len()+len(set))
	for i, id := range pv.ids {
		if gone[id] {
			continue
		}
		next.pos[id] = int32(len(next.ids))
		next.ids = append(next.ids, id)
		next.scales = append(next.scales, pv.scales[i])
		next.codes = append(next.codes, pv.codes[i*pv.dims:(i+1)*pv.dims]...)
	}
	for _, id := range slices.Sorted(maps.Keys(set)) {
		next.add(id, set[id])
	}
	return next
}

// vectorsMagic starts the encoding: version 1.
const vectorsMagic = "PBVECS01"

var errDamagedVectors = errors.New("damaged paper vectors")

// encode writes the vectors with a CRC-32 at the end.
func (pv *paperVectors) encode() []byte {
	out := make([]byte, 0, len(vectorsMagic)+len(pv.model)+16+pv.len()*(pv.dims+24))
	out = append(out, vectorsMagic...)
	out = binary.AppendUvarint(out, uint64(len(pv.model)))
	out = append(out, pv.model...)
	out = binary.AppendUvarint(out, uint64(pv.dims))
	out = binary.AppendUvarint(out, uint64(pv.len()))
	for i, id := range pv.ids {
		out = binary.AppendUvarint(out, uint64(len(id)))
		out = append(out, id...)
		out = binary.LittleEndian.AppendUint32(out, math.Float32bits(pv.scales[i]))
		for _, c := range pv.codes[i*pv.dims : (i+1)*pv.dims] {
			out = append(out, byte(c))
		}
	}
	return binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(out))
}

func decodeVectors(b []byte) (*paperVectors, error) {
	if len(b) < len(vectorsMagic)+4 || string(b[:len(vectorsMagic)]) != vectorsMagic {
		return nil, errDamagedVectors
	}
	body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return nil, errDamagedVectors
	}
	r := bytes.NewReader(body[len(vectorsMagic):])
	uv := func() (int, error) {
		v, err := binary.ReadUvarint(r)
		if err != nil || v > math.MaxInt32 {
			return 0, errDamagedVectors
		}
		return int(v), nil
	}
	str := func() (string, error) {
		n, err := uv()
		if err != nil || n > r.Len() {
			return "", errDamagedVectors
		}
		s := make([]byte, n)
		_, _ = r.Read(s)
		return string(s), nil
	}
	model, err := str()
	if err != nil {
		return nil, err
	}
	dims, err := uv()
	if err != nil || dims == 0 || dims > 4096 {
		return nil, errDamagedVectors
	}
	n, err := uv()
	if err != nil || n > r.Len()/(dims+5) {
		return nil, errDamagedVectors
	}
	pv := newPaperVectors(model, dims, n)
	row := make([]byte, 4+dims)
	for range n {
		id, err := str()
		if err != nil {
			return nil, err
		}
		if _, err := r.Read(row); err != nil || r.Len() < 0 {
			return nil, errDamagedVectors
		}
		if _, dup := pv.pos[id]; dup {
			return nil, errDamagedVectors
		}
		scale := math.Float32frombits(binary.LittleEndian.Uint32(row))
		if math.IsNaN(float64(scale)) || math.IsInf(float64(scale), 0) || scale < 0 {
			return nil, errDamagedVectors
		}
		pv.pos[id] = int32(len(pv.ids))
		pv.ids = append(pv.ids, id)
		pv.scales = append(pv.scales, scale)
		for _, c := range row[4:] {
			pv.codes = append(pv.codes, int8(c))
		}
	}
	if r.Len() != 0 {
		return nil, errDamagedVectors
	}
	return pv, nil
}

// vectorsPrefix starts the names of vector files in an index directory.
const vectorsPrefix = "paperbot-vectors-"

// writeVectors writes pv to a new synced file in dir and returns its name.
func writeVectors(dir string, pv *paperVectors) (string, error) {
	name := vectorsPrefix + strconv.FormatInt(time.Now().UnixNano(), 36)
	path := filepath.Join(dir, name)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return "", fmt.Errorf("write paper vectors: %w", err)
	}
	_, err = f.Write(pv.encode())
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = syncDir(dir)
	}
	if err != nil {
		_ = os.Remove(path)
		return "", fmt.Errorf("write paper vectors: %w", err)
	}
	return name, nil
}

// removeStaleVectors deletes the vector files in dir but keep.
func removeStaleVectors(dir, keep string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if n := e.Name(); strings.HasPrefix(n, vectorsPrefix) && n != keep {
			_ = os.Remove(filepath.Join(dir, n))
		}
	}
}
