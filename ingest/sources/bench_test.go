package sources

import "testing"

// BenchmarkParseOAI measures harvest parsing; a full OAI-PMH page is 1,000
// records, about twenty times the recorded 46.
func BenchmarkParseOAI(b *testing.B) {
	body := fixture(b, "arxiv-oai-2016-listrecords-arXiv-set-cs.xml")
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if _, err := ParseOAI(body); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseAtom parses 100 API entries.
func BenchmarkParseAtom(b *testing.B) {
	body := fixture(b, "arxiv-api-2026-search-all-testing-start0-max100.atom.xml")
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if _, err := ParseAtom(body); err != nil {
			b.Fatal(err)
		}
	}
}
