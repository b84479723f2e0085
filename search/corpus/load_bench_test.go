package corpus

import (
	"os"
	"testing"
)

// realCorpora are the shared real corpora, beside the repository clone.
var realCorpora = []string{
	"../../../shared/corpora/dotd-NeurIPS2024Scrape/ICML_cc_2024_Conference.csv",
	"../../../shared/corpora/dotd-NeurIPS2024Scrape/ICLR_cc_2024_Conference.csv",
	"../../../shared/corpora/papercopilot-paperlists/nips2018.json",
}

func skipWithoutCorpora(tb testing.TB) {
	tb.Helper()
	for _, f := range realCorpora {
		if _, err := os.Stat(f); err != nil {
			tb.Skipf("real corpora not found beside the clone (%v)", err)
		}
	}
}

// BenchmarkLoadCorpora loads the three real corpora (about 5,900 papers):
// read, parse, clean, de-duplicate, assign IDs.
func BenchmarkLoadCorpora(b *testing.B) {
	skipWithoutCorpora(b)
	b.ReportAllocs()
	papers := 0
	for b.Loop() {
		c, err := LoadFiles(realCorpora)
		if err != nil {
			b.Fatal(err)
		}
		papers = len(c.Papers)
	}
	b.ReportMetric(float64(papers), "papers")
}

// BenchmarkCorpusHash hashes the real corpora.
func BenchmarkCorpusHash(b *testing.B) {
	skipWithoutCorpora(b)
	c, err := LoadFiles(realCorpora)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		c.Hash()
	}
}
