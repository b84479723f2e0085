package sources

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

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
