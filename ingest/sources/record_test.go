package sources

import (
	"slices"
	"testing"
)

func TestRecordPaper(t *testing.T) {
	f, err := ParseRSS(fixture(t, "arxiv-rss-2026-cs.LG+cs.AI+cs.CL+stat.ML-trimmed.xml"))
	if err != nil {
		t.Fatal(err)
	}
	r := f.Records[2]
	p := r.Paper()
	if p.Title != "Outlier Detection for Multi-Network Data" || p.Year != 2026 || p.URL != "https://arxiv.org/abs/2205.06398" || p.ID != "" {
		t.Errorf("paper %+v", p)
	}
	if !slices.Contains(p.Keywords, "stat.ML") || p.Source != "arxiv-rss#arxiv:2205.06398" {
		t.Errorf("keywords %q source %q", p.Keywords, p.Source)
	}
	if r.Key() != (Record{ArXivID: "2205.06398", Version: 1, DOI: "x"}).Key() {
		t.Error("versions change the key")
	}
	if got := (Record{ArXivID: "2205.06398", DOI: "10.1/x", Title: "A Title"}).Keys(); !slices.Equal(got, []string{"arxiv:2205.06398", "doi:10.1/x", "title:a title"}) {
		t.Errorf("Keys %q", got)
	}
	if (Record{DOI: "10.1/x"}).Key() != "doi:10.1/x" || (Record{Title: "A  Title!"}).Key() != "title:a title" {
		t.Error("key fallbacks")
	}
}
