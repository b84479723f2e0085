package semantic

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
)

// benchModel is a model shaped like the real one (about 55k rows of 256
// dims) whose vocabulary holds most words of testdata/abstract.txt whole;
// the rest go through WordPiece pieces.
func benchModel(b *testing.B) (*Static, string) {
	b.Helper()
	abs, err := os.ReadFile("testdata/abstract.txt")
	if err != nil {
		b.Fatal(err)
	}
	seen := map[string]bool{}
	var vocab []string
	add := func(w string) {
		if !seen[w] {
			seen[w] = true
			vocab = append(vocab, w)
		}
	}
	// One word in ten is split in two WordPiece pieces, as BERT's
	// vocabulary splits rarer words.
	for i, w := range words(string(abs)) {
		if i%10 == 0 && len(w) >= 4 {
			add(w[:len(w)/2])
			add("##" + w[len(w)/2:])
			continue
		}
		add(w)
	}
	for c := 'a'; c <= 'z'; c++ {
		add(string(c))
		add("##" + string(c))
	}
	for i := 0; len(vocab) < 55000; i++ {
		add(fmt.Sprintf("w%dx", i))
	}
	f := newModelFiles(vocab, 256)
	rng := rand.New(rand.NewPCG(1, 2))
	values := f.table[tableHeader+4*len(vocab):]
	for i := range values {
		values[i] = byte(rng.IntN(256))
	}
	f.sign()
	m, err := Load(os.DirFS(f.write(b)))
	if err != nil {
		b.Fatal(err)
	}
	return m, string(abs)
}

// BenchmarkEmbedAbstract embeds a 250-word abstract.
func BenchmarkEmbedAbstract(b *testing.B) {
	m, abs := benchModel(b)
	b.Logf("%d tokens, %d bytes", len(m.Tokens(abs)), len(abs))
	dst := make([]float32, m.Dims())
	b.SetBytes(int64(len(abs)))
	b.ReportAllocs()
	for b.Loop() {
		dst = m.EmbedText(abs, dst)
	}
}

// BenchmarkEmbedQuery embeds a short question.
func BenchmarkEmbedQuery(b *testing.B) {
	m, _ := benchModel(b)
	dst := make([]float32, m.Dims())
	b.ReportAllocs()
	for b.Loop() {
		dst = m.EmbedText("how can I tell if text was written by my chatbot?", dst)
	}
}

// BenchmarkTokenizeAbstract is the tokenizer's share of an abstract.
func BenchmarkTokenizeAbstract(b *testing.B) {
	m, abs := benchModel(b)
	s := &staticScratch{}
	for b.Loop() {
		s.ids = m.tokenIDs(abs, s)
	}
}

// BenchmarkPoolRows compares summing an abstract's rows stored as int8
// with a scale (the model's layout, 14 MB at 55k rows) against float32 rows
// (55 MB), the latter without merging repeated tokens.
func BenchmarkPoolRows(b *testing.B) {
	m, abs := benchModel(b)
	s := &staticScratch{}
	ids := m.tokenIDs(abs, s)
	b.Run("int8", func(b *testing.B) {
		dst := make([]float32, m.Dims())
		for b.Loop() {
			s.ids = ids
			dst = m.pool(s, dst)
		}
	})
	b.Run("float32", func(b *testing.B) {
		rows := make([]float32, m.Rows()*m.Dims())
		for i := range m.Rows() {
			m.Row(i, rows[i*m.Dims():(i+1)*m.Dims()])
		}
		dst := make([]float32, m.Dims())
		for b.Loop() {
			clear(dst)
			for _, id := range ids {
				row := rows[int(id)*m.Dims() : (int(id)+1)*m.Dims()]
				acc := dst[:len(row)]
				for j, x := range row {
					acc[j] += x
				}
			}
			Normalize(dst)
		}
	})
}
