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

func TestParseOAI(t *testing.T) {
	tests := []struct {
		file             string
		records          int
		token            string
		cursor, size     int
		first            string
		firstTitle       string
		firstDOI         string
		firstAnnounce    Announce
		firstCategories  []string
		firstAuthorCount int
	}{
		{"arxiv-oai-2016-listrecords-arXiv-set-cs.xml", 46, "", -1, -1, "1101.4388", "Reproducing Kernel Banach Spaces with the l1 Norm", "10.1016/j.acha.2012.03.009", AnnounceReplace, []string{"stat.ML", "cs.LG", "math.FA"}, 3},
		{"arxiv-oai-2024-listrecords-oai_dc-set-cs-resumptiontoken.xml", 5, "6960524|1001", 0, 1162, "1303.2033", "Extended Fourier analysis of signals", "", AnnounceReplace, nil, 1},
		{"arxiv-oai-2026-listrecords-arXiv-set-physics.plasm-ph-oaipmh.arxiv.org.xml", 3, "", -1, -1, "2504.11237", "Periodic table for highly charged ions", "10.1103/bppp-53g1", AnnounceReplace, []string{"physics.atom-ph", "physics.optics", "physics.plasm-ph", "quant-ph"}, 3},
		{"arxiv-oai-2019-getrecord-arXivRaw.xml", 1, "", -1, -1, "1810.09584", "Martingale theory for housekeeping heat", "10.1209/0295-5075/124/60006", AnnounceReplace, []string{"cond-mat.stat-mech", "physics.bio-ph", "physics.data-an"}, 4},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			p, err := ParseOAI(fixture(t, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Records) != tt.records || p.Token != tt.token || p.Cursor != tt.cursor || p.CompleteListSize != tt.size {
				t.Fatalf("got %d records, token %q cursor %d size %d", len(p.Records), p.Token, p.Cursor, p.CompleteListSize)
			}
			r := p.Records[0]
			if r.ArXivID != tt.first || r.Title != tt.firstTitle || r.DOI != tt.firstDOI || r.Announce != tt.firstAnnounce {
				t.Errorf("first record %s %q doi %q %s", r.ArXivID, r.Title, r.DOI, r.Announce)
			}
			if !slices.Equal(r.Categories, tt.firstCategories) || len(r.Authors) != tt.firstAuthorCount {
				t.Errorf("categories %q authors %q", r.Categories, r.Authors)
			}
			if r.Datestamp == "" || r.Announced.IsZero() {
				t.Errorf("no datestamp: %q", r.Datestamp)
			}
			for _, r := range p.Records {
				if strings.Contains(r.Abstract, "\n") || strings.Contains(r.Abstract, "  ") || strings.Contains(r.Abstract, "&#39;") || r.Abstract == "" {
					t.Errorf("%s: abstract not normalised: %.80q", r.ArXivID, r.Abstract)
				}
			}
		})
	}
}

func TestParseOAIDetails(t *testing.T) {
	p, err := ParseOAI(fixture(t, "arxiv-oai-2024-listrecords-oai_dc-set-cs-resumptiontoken.xml"))
	if err != nil {
		t.Fatal(err)
	}
	r := p.Records[0]
	if r.Submitted.Year() != 2013 || r.Paper().Year != 2013 {
		t.Errorf("oai_dc submitted %v", r.Submitted)
	}
	if r.Authors[0] != "Vilnis Liepins" || strings.HasPrefix(r.Abstract, "Comment:") || len(r.Keywords) != 3 {
		t.Errorf("oai_dc record: authors %q keywords %q abstract %.40q", r.Authors, r.Keywords, r.Abstract)
	}
	raw, err := ParseOAI(fixture(t, "arxiv-oai-2019-getrecord-arXivRaw.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if r := raw.Records[0]; r.Version != 2 || r.Updated.IsZero() || r.Submitted.Year() != 2018 || r.Paper().Year != 2018 {
		t.Errorf("arXivRaw: version %d updated %v", r.Version, r.Updated)
	}
	plasma, err := ParseOAI(fixture(t, "arxiv-oai-2026-listrecords-arXiv-set-physics.plasm-ph-oaipmh.arxiv.org.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if a := plasma.Records[0].Abstract; !strings.HasPrefix(a, "Mendeleev's periodic table") {
		t.Errorf("abstract %.40q", a)
	}
	if a := plasma.Records[0].Authors; a[2] != "Zoltán Harman" {
		t.Errorf("authors %q", a)
	}
}

func TestParseOAIErrors(t *testing.T) {
	const tmpl = `<?xml version="1.0" encoding="UTF-8"?>
<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2026-01-05T00:00:00Z</responseDate>
<request verb="ListRecords">http://export.arxiv.org/oai2</request><error code="%s">message</error></OAI-PMH>`
	tests := []struct {
		name   string
		body   []byte
		target error
	}{
		{"idDoesNotExist recorded", fixture(t, "arxiv-oai-2017-error-idDoesNotExist.xml"), ErrIDDoesNotExist},
		{"noRecordsMatch", []byte(strings.Replace(tmpl, "%s", "noRecordsMatch", 1)), ErrNoRecordsMatch},
		{"badResumptionToken", []byte(strings.Replace(tmpl, "%s", "badResumptionToken", 1)), ErrBadResumptionToken},
		{"html page", []byte("<!DOCTYPE html><html><body>busy</body></html>"), ErrUnexpectedContent},
		{"truncated", fixture(t, "arxiv-oai-2016-listrecords-arXiv-set-cs.xml")[:5000], ErrTruncated},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseOAI(tt.body)
			if !errors.Is(err, tt.target) {
				t.Errorf("err = %v, want %v", err, tt.target)
			}
		})
	}
	_, err := ParseOAI(fixture(t, "arxiv-oai-2017-error-idDoesNotExist.xml"))
	var oe *OAIError
	if !errors.As(err, &oe) || !strings.Contains(oe.Message, "1305.9999") {
		t.Errorf("error %v lacks the server's message", err)
	}
}

func TestParseOAIDeleted(t *testing.T) {
	// No deleted record from arXiv was ever recorded (see the feeds README);
	// this follows OAI-PMH 2.0 section 2.5.1.
	body := `<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2026-01-06T00:00:00Z</responseDate>
<ListRecords><record><header status="deleted"><identifier>oai:arXiv.org:2601.00001</identifier>
<datestamp>2026-01-05</datestamp><setSpec>cs</setSpec></header></record>
<resumptionToken cursor="1000" completeListSize="1001"></resumptionToken></ListRecords></OAI-PMH>`
	p, err := ParseOAI([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Records) != 1 || p.Records[0].Announce != AnnounceWithdrawn || p.Records[0].ArXivID != "2601.00001" {
		t.Fatalf("records %+v", p.Records)
	}
	if p.Token != "" || p.Cursor != 1000 {
		t.Errorf("last page: token %q cursor %d", p.Token, p.Cursor)
	}
}

func TestParseOpenReview(t *testing.T) {
	tests := []struct {
		file     string
		count    int
		records  int
		id       string
		venue    string
		announce Announce
		dated    bool
	}{
		{"openreview-v2-notes-iclr2024-accepted-limit1-scrubbed.json", -1, 1, "rhgIgTSSxW", "ICLR 2024 poster", AnnounceNew, true},
		{"openreview-v2-notes-iclr2024-withdrawn-limit1-scrubbed.json", -1, 1, "", "ICLR 2024 Conference Withdrawn Submission", AnnounceWithdrawn, true},
		{"openreview-v2-notes-iclr2024-listing-count2260-trimmed3-scrubbed.json", 2260, 3, "Ny150AblPu", "ICLR 2024 poster", AnnounceNew, false},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			p, err := ParseOpenReviewNotes(fixture(t, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if p.Count != tt.count || len(p.Records) != tt.records {
				t.Fatalf("count %d records %d", p.Count, len(p.Records))
			}
			r := p.Records[0]
			if tt.id != "" && r.OpenReviewID != tt.id {
				t.Errorf("id %q", r.OpenReviewID)
			}
			if r.Venue != tt.venue || r.Announce != tt.announce || r.Title == "" || r.Abstract == "" || len(r.Authors) == 0 {
				t.Errorf("record %+v", r)
			}
			if r.URL != "https://openreview.net/forum?id="+r.OpenReviewID || r.Key() != "openreview:"+r.OpenReviewID {
				t.Errorf("URL %q key %q", r.URL, r.Key())
			}
			if tt.dated == r.Announced.IsZero() {
				t.Errorf("announced %v", r.Announced)
			}
		})
	}
	p, _ := ParseOpenReviewNotes(fixture(t, "openreview-v2-notes-iclr2024-accepted-limit1-scrubbed.json"))
	// pdate 1705411064826 is 2024-01-16T13:17:44.826Z.
	if got := p.Records[0].Announced; !got.Equal(time.UnixMilli(1705411064826)) || got.Year() != 2024 {
		t.Errorf("announced %v", got)
	}
}

func TestParseOpenReviewErrors(t *testing.T) {
	tests := []struct {
		name   string
		body   []byte
		target error
	}{
		{"browser check page", []byte("<!DOCTYPE html>\n<html><head><title>Verifying your browser | OpenReview</title></head></html>"), ErrUnexpectedContent},
		{"truncated", fixture(t, "openreview-v2-notes-iclr2024-accepted-limit1-scrubbed.json")[:700], ErrTruncated},
		{"empty", nil, ErrTruncated},
		{"no notes", []byte(`{"other": 1}`), ErrUnexpectedContent},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := ParseOpenReviewNotes(tt.body); !errors.Is(err, tt.target) {
				t.Errorf("err = %v, want %v", err, tt.target)
			}
		})
	}
	_, err := ParseOpenReviewNotes(fixture(t, "openreview-v2-error-http400-limit-over-1000.json"))
	var ae *APIError
	if !errors.As(err, &ae) || ae.Name != "ValidationError" || !strings.Contains(ae.Message, "limit must be <= 1000") {
		t.Errorf("err = %v, want the ValidationError", err)
	}
}

func TestParseAtom(t *testing.T) {
	tests := []struct {
		file       string
		total, n   int
		first      string
		version    int
		primary    string
		doi        string
		oldStyleID bool
	}{
		{"arxiv-api-2026-search-cat-cs.CL-max3.atom.xml", 119894, 3, "2609.28471", 1, "cs.CL", "10.1007/978-3-032-39150-6_7", false},
		{"arxiv-api-2026-search-all-testing-start0-max10.atom.xml", 214881, 10, "2202.12139", 1, "", "", false},
		{"arxiv-api-2026-search-all-testing-start0-max100.atom.xml", 214881, 100, "2202.12139", 1, "", "", true},
		{"arxiv-api-2025-search-cat-cs.RO-AND-neural.atom.xml", 5619, 2, "", 0, "", "", false},
		{"arxiv-api-2016-search-au-del_maestro.atom.xml", 31, 10, "", 0, "", "", true},
		{"arxiv-api-2026-idlist-empty-result.atom.xml", 0, 0, "", 0, "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			f, err := ParseAtom(fixture(t, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if f.Total != tt.total || len(f.Records) != tt.n {
				t.Fatalf("total %d records %d", f.Total, len(f.Records))
			}
			if tt.n == 0 {
				return
			}
			r := f.Records[0]
			if tt.first != "" && (r.ArXivID != tt.first || r.Version != tt.version) {
				t.Errorf("first %s v%d", r.ArXivID, r.Version)
			}
			if tt.primary != "" && r.Categories[0] != tt.primary {
				t.Errorf("categories %q", r.Categories)
			}
			if tt.doi != "" && r.DOI != tt.doi {
				t.Errorf("doi %q", r.DOI)
			}
			old := false
			for _, r := range f.Records {
				if r.Title == "" || r.Abstract == "" || len(r.Authors) == 0 || len(r.Categories) == 0 || r.Announced.IsZero() {
					t.Errorf("%s incomplete: %+v", r.ArXivID, r)
				}
				if strings.Contains(r.Abstract, "\n") || strings.Contains(r.Title, "\n") {
					t.Errorf("%s not unwrapped", r.ArXivID)
				}
				old = old || strings.Contains(r.ArXivID, "/")
			}
			if old != tt.oldStyleID {
				t.Errorf("old-style ids seen: %v, want %v", old, tt.oldStyleID)
			}
		})
	}
}

func TestParseAtomErrors(t *testing.T) {
	for _, file := range []string{"arxiv-api-2026-error-http400-bad-id.atom.xml", "arxiv-api-2019-error-invalid-id.atom.xml"} {
		t.Run(file, func(t *testing.T) {
			_, err := ParseAtom(fixture(t, file))
			var ae *APIError
			if !errors.As(err, &ae) || !strings.HasPrefix(ae.Message, "incorrect id format for") {
				t.Errorf("err = %v, want the error entry", err)
			}
		})
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
