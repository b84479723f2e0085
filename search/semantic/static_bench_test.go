package semantic

import (
	"os"
	"testing"
)

// benchModel is the distilled model and a 250-word abstract.
func benchModel(b *testing.B) (*Static, string) {
	b.Helper()
	abs, err := os.ReadFile("testdata/abstract.txt")
	if err != nil {
		b.Fatal(err)
	}
	return realModel(b), string(abs)
}

// BenchmarkLoadModel is a fresh process's cost of the model.
func BenchmarkLoadModel(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		realModel(b)
	}
}

// BenchmarkEmbedAbstract embeds a 250-word abstract.
func BenchmarkEmbedAbstract(b *testing.B) {
	m, abs := benchModel(b)
	b.Logf("%d tokens, %d bytes", len(m.Tokens(abs)), len(abs))
	dst := make([]float32, m.Dims())
	b.SetBytes(int64(len(abs)))
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		dst = m.EmbedText(abs, dst)
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// BenchmarkEmbedQuery embeds a short question.
func BenchmarkEmbedQuery(b *testing.B) {
	m, _ := benchModel(b)
	dst := make([]float32, m.Dims())
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		dst = m.EmbedText("how can I tell if text was written by my chatbot?", dst)
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
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
// with a scale (the model's layout, 12 MB at 46k rows) against float32 rows
// (47 MB), the latter without merging repeated tokens.
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
