package semantic

import (
	"context"
	"math"
	"sync"
)

// Static is a static embedding model: a table with one vector per
// vocabulary token. A text's vector is the mean of its tokens' rows,
// L2-normalised. It is read-only after Load and safe for concurrent use.
type Static struct {
	vocab
	dims    int
	scales  []float32 // per row
	values  []byte    // rows x dims int8, row-major
	meta    Meta
	modelID string
	scratch sync.Pool // *staticScratch
}

var _ Embedder = (*Static)(nil)

type staticScratch struct {
	word  []byte
	tmp   []rune
	ids   []int32
	uniq  []int32
	count []uint32 // per row, zero between uses
}

// Dims is the length of the model's vectors.
func (m *Static) Dims() int { return m.dims }

// Rows is the number of tokens in the vocabulary.
func (m *Static) Rows() int { return len(m.scales) }

// ModelID is "static/<base model>/<dims>/<hash of table and vocab>".
func (m *Static) ModelID() string { return m.modelID }

// Meta is the model's meta.json.
func (m *Static) Meta() Meta { return m.meta }

// Embed returns a vector per text. It fails only when ctx is done.
func (m *Static) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	flat := make([]float32, len(texts)*m.dims)
	for i, t := range texts {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		out[i] = m.EmbedText(t, flat[i*m.dims:(i+1)*m.dims:(i+1)*m.dims])
	}
	return out, nil
}

// EmbedText writes text's vector into dst (grown to Dims if short) and
// returns it; the hot path of a query allocates nothing.
func (m *Static) EmbedText(text string, dst []float32) []float32 {
	s := m.getScratch()
	s.ids = m.tokenIDs(text, s)
	dst = m.pool(s, dst)
	m.putScratch(s)
	return dst
}

// Tokens returns the rows of text's tokens, in order.
func (m *Static) Tokens(text string) []int {
	s := m.getScratch()
	s.ids = m.tokenIDs(text, s)
	out := make([]int, len(s.ids))
	for i, id := range s.ids {
		out[i] = int(id)
	}
	m.putScratch(s)
	return out
}

// Row writes row id's vector (as stored, not normalised) into dst, grown
// to Dims if short, and returns it. It panics if id is out of range, like
// an index expression.
func (m *Static) Row(id int, dst []float32) []float32 {
	dst = grow(dst, m.dims)
	row := m.values[id*m.dims : (id+1)*m.dims]
	s := m.scales[id]
	for j, b := range row {
		dst[j] = s * float32(int8(b))
	}
	return dst
}

// Token is row id's token as written in vocab.txt.
func (m *Static) Token(id int) string { return m.vocab.tokens[id] }

func (m *Static) getScratch() *staticScratch {
	if s, ok := m.scratch.Get().(*staticScratch); ok {
		return s
	}
	return &staticScratch{}
}

// putScratch keeps s for the next text unless a huge text grew it: a
// megabyte of text should not stay pinned for the abstracts after it.
func (m *Static) putScratch(s *staticScratch) {
	if cap(s.ids) <= 1<<16 && cap(s.word) <= 1<<12 {
		m.scratch.Put(s)
	}
}

func (m *Static) tokenIDs(text string, s *staticScratch) []int32 {
	ids := s.ids[:0]
	s.word, s.tmp = splitWords(text, s.word, s.tmp, func(w []byte) {
		ids = m.lookup(w, ids)
	})
	return ids
}

// pool sums the rows of s.ids into dst and L2-normalises it. A token
// that recurs is added once, weighted by its count: an abstract repeats
// a third of its tokens, and the row sums are most of the time spent.
func (m *Static) pool(s *staticScratch, dst []float32) []float32 {
	dst = grow(dst, m.dims)
	clear(dst)
	if len(s.count) != len(m.scales) {
		s.count = make([]uint32, len(m.scales))
	}
	uniq := s.uniq[:0]
	for _, id := range s.ids {
		if s.count[id] == 0 {
			uniq = append(uniq, id)
		}
		s.count[id]++
	}
	for _, id := range uniq {
		w := m.scales[id] * float32(s.count[id])
		s.count[id] = 0
		row := m.values[int(id)*m.dims : (int(id)+1)*m.dims]
		acc := dst[:len(row)]
		for j, b := range row {
			acc[j] += w * float32(int8(b))
		}
	}
	s.uniq = uniq
	Normalize(dst)
	return dst
}

// Normalize scales v to unit length in place; the zero vector stays zero.
func Normalize(v []float32) {
	var ss float64
	for _, x := range v {
		ss += float64(x) * float64(x)
	}
	if ss == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(ss))
	for i := range v {
		v[i] *= inv
	}
}

func grow(dst []float32, n int) []float32 {
	if cap(dst) < n {
		return make([]float32, n)
	}
	return dst[:n]
}
