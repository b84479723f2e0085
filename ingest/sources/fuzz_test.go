package sources

import (
	"testing"
)

// The parsers read whatever a service or a proxy sends; they must return an
// error, never panic, and every record they return must carry an identity.

func FuzzParseRSS(f *testing.F) {
	f.Add(fixture(f, "arxiv-rss-2026-cs.LG+cs.AI+cs.CL+stat.ML-trimmed.xml"))
	f.Add(fixture(f, "arxiv-rss1.0-2018-hep-ex-abridged.rdf.xml"))
	f.Fuzz(func(t *testing.T, body []byte) {
		feed, err := ParseRSS(body)
		checkRecords(t, feed.Records, err)
	})
}

func FuzzParseOAI(f *testing.F) {
	f.Add(fixture(f, "arxiv-oai-2024-listrecords-oai_dc-set-cs-resumptiontoken.xml"))
	f.Add(fixture(f, "arxiv-oai-2019-getrecord-arXivRaw.xml"))
	f.Add(fixture(f, "arxiv-oai-2017-error-idDoesNotExist.xml"))
	f.Fuzz(func(t *testing.T, body []byte) {
		p, err := ParseOAI(body)
		checkRecords(t, p.Records, err)
	})
}

func FuzzParseOpenReviewNotes(f *testing.F) {
	f.Add(fixture(f, "openreview-v2-notes-iclr2024-accepted-limit1-scrubbed.json"))
	f.Add(fixture(f, "openreview-v2-error-http400-limit-over-1000.json"))
	f.Fuzz(func(t *testing.T, body []byte) {
		p, err := ParseOpenReviewNotes(body)
		checkRecords(t, p.Records, err)
	})
}

func FuzzParseAtom(f *testing.F) {
	f.Add(fixture(f, "arxiv-api-2026-search-cat-cs.CL-max3.atom.xml"))
	f.Add(fixture(f, "arxiv-api-2026-error-http400-bad-id.atom.xml"))
	f.Fuzz(func(t *testing.T, body []byte) {
		feed, err := ParseAtom(body)
		checkRecords(t, feed.Records, err)
	})
}

func checkRecords(t *testing.T, recs []Record, err error) {
	t.Helper()
	if err != nil && len(recs) > 0 {
		t.Fatalf("records returned with error %v", err)
	}
	for _, r := range recs {
		if r.ArXivID == "" && r.OpenReviewID == "" {
			t.Fatalf("record without identity: %+v", r)
		}
		if r.ArXivID != "" {
			if id, _, ok := ParseArXivID(r.ArXivID); !ok || id != r.ArXivID {
				t.Fatalf("record id %q is not canonical", r.ArXivID)
			}
		}
	}
}
