package sources

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseRSS2(t *testing.T) {
	f, err := ParseRSS(fixture(t, "arxiv-rss-2026-cs.LG+cs.AI+cs.CL+stat.ML-trimmed.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Records) != 4 {
		t.Fatalf("got %d records, want 4", len(f.Records))
	}
	wantDate := time.Date(2026, 9, 24, 4, 0, 0, 0, time.UTC)
	if !f.Date.Equal(wantDate) {
		t.Errorf("feed date %v, want %v", f.Date, wantDate)
	}
	tests := []struct {
		id       string
		version  int
		announce Announce
		doi      string
		cats     []string
		authors  int
	}{
		{"2609.26811", 1, AnnounceNew, "", []string{"cs.LG"}, 1},
		{"2609.26820", 1, AnnounceNew, "", []string{"cs.LG", "cs.AI"}, 3},
		{"2205.06398", 2, AnnounceCross, "10.1093/bioinformatics/btac431", []string{"stat.ME", "stat.AP", "stat.ML"}, 3},
		{"2009.13987", 3, AnnounceReplace, "", []string{"cs.LG", "math.MG", "stat.ML"}, 3},
	}
	for i, tt := range tests {
		r := f.Records[i]
		t.Run(tt.id, func(t *testing.T) {
			if r.ArXivID != tt.id || r.Version != tt.version || r.Announce != tt.announce || r.DOI != tt.doi {
				t.Errorf("got %s v%d %s doi %q; want %s v%d %s doi %q", r.ArXivID, r.Version, r.Announce, r.DOI, tt.id, tt.version, tt.announce, tt.doi)
			}
			if !slices.Equal(r.Categories, tt.cats) || len(r.Authors) != tt.authors {
				t.Errorf("categories %q authors %q", r.Categories, r.Authors)
			}
			if strings.HasPrefix(r.Abstract, "arXiv:") || strings.Contains(r.Abstract, "Announce Type") || r.Abstract == "" {
				t.Errorf("abstract keeps the announcement header: %.80q", r.Abstract)
			}
			if !r.Announced.Equal(wantDate) {
				t.Errorf("announced %v", r.Announced)
			}
			if r.URL != "https://arxiv.org/abs/"+tt.id {
				t.Errorf("URL %q", r.URL)
			}
		})
	}
	if got := f.Records[2].Authors; !slices.Equal(got, []string{"Pritam Dey", "Zhengwu Zhang", "David B. Dunson"}) {
		t.Errorf("authors %q", got)
	}
	if !strings.HasPrefix(f.Records[3].Abstract, "We introduce a class of random polytopes") {
		t.Errorf("abstract %.60q", f.Records[3].Abstract)
	}
}

func TestParseRDF(t *testing.T) {
	f, err := ParseRSS(fixture(t, "arxiv-rss1.0-2018-hep-ex-abridged.rdf.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Records) != 3 {
		t.Fatalf("got %d records, want 3", len(f.Records))
	}
	tests := []struct {
		id, title string
		version   int
		announce  Announce
		cat       string
		authors   []string
	}{
		{"1805.08875", "Measurement of Transverse Single Spin Asymmetries in $\\pi^0$ Production from $p^{\\uparrow}+p$ and $p^{\\uparrow}+A$ Collisions at STAR", 1, AnnounceNew, "hep-ex", []string{"Christopher Dilks (STAR Collaboration)"}},
		{"1805.09166", "Recent Top quark results from the Tevatron", 1, AnnounceCross, "hep-ex", []string{"Boris Tuchming"}},
		{"1805.06430", "New Perspective on Hybrid Mesons", 2, AnnounceReplace, "nucl-th", []string{"Shu-Sheng Xu", "Zhu-Fang Cui", "Lei Chang", "Joannis Papavassiliou", "Craig D. Roberts", "Hong-Shi Zong"}},
	}
	for i, tt := range tests {
		r := f.Records[i]
		t.Run(tt.id, func(t *testing.T) {
			if r.ArXivID != tt.id || r.Version != tt.version || r.Announce != tt.announce || r.Title != tt.title {
				t.Errorf("got %s v%d %s %q", r.ArXivID, r.Version, r.Announce, r.Title)
			}
			if !slices.Equal(r.Categories, []string{tt.cat}) || !slices.Equal(r.Authors, tt.authors) {
				t.Errorf("categories %q authors %q", r.Categories, r.Authors)
			}
			if strings.Contains(r.Abstract, "<p>") || strings.Contains(r.Abstract, "&lt;") || r.Abstract == "" {
				t.Errorf("abstract keeps markup: %q", r.Abstract)
			}
			if r.Announced.IsZero() {
				t.Error("no announcement date")
			}
		})
	}
	if !strings.Contains(f.Records[0].Abstract, `$2.6<\eta<4$`) {
		t.Errorf("escaped < not decoded: %q", f.Records[0].Abstract)
	}
}

func TestParseRSS2Quiet(t *testing.T) {
	// A weekend feed: the channel as arXiv sends it, without items.
	empty := `<?xml version='1.0' encoding='UTF-8'?>
<rss xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns:dc="http://purl.org/dc/elements/1.1/" version="2.0">
<channel><title>physics updates on arXiv.org</title><link>http://rss.arxiv.org/rss/physics</link>
<pubDate>Wed, 31 Dec 2025 00:00:00 -0500</pubDate><skipDays><day>Saturday</day><day>Sunday</day></skipDays>
</channel></rss>`
	f, err := ParseRSS([]byte(empty))
	if err != nil || len(f.Records) != 0 || f.Date.IsZero() {
		t.Fatalf("feed %+v, err %v", f, err)
	}
	// An announce type arXiv may add later is kept, not mistaken for news.
	odd := strings.Replace(string(fixture(t, "arxiv-rss-2026-cs.LG+cs.AI+cs.CL+stat.ML-trimmed.xml")),
		"<arxiv:announce_type>new</arxiv:announce_type>", "<arxiv:announce_type>Replace-Cross</arxiv:announce_type>", 1)
	f, err = ParseRSS([]byte(odd))
	if err != nil {
		t.Fatal(err)
	}
	if a := f.Records[0].Announce; a != AnnounceReplaceCross || !a.IsUpdate() {
		t.Errorf("announce %q", a)
	}
}

func TestRSSRejectsOtherContent(t *testing.T) {
	tests := []struct {
		name   string
		body   string
		target error
	}{
		{"html", "<html><body>Service unavailable</body></html>", ErrUnexpectedContent},
		{"atom", `<feed xmlns="http://www.w3.org/2005/Atom"></feed>`, ErrUnexpectedContent},
		{"empty", "", ErrTruncated},
		{"truncated", `<rss version="2.0"><channel><item><title>x`, ErrTruncated},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := ParseRSS([]byte(tt.body)); !errors.Is(err, tt.target) {
				t.Errorf("err = %v, want %v", err, tt.target)
			}
		})
	}
}
