package sources

import (
	"strings"
	"time"
)

// AtomFeed is one page of arXiv query API results.
type AtomFeed struct {
	Total, Start, PerPage int
	Records               []Record
}

type atomDoc struct {
	Total   int         `xml:"http://a9.com/-/spec/opensearch/1.1/ totalResults"`
	Start   int         `xml:"http://a9.com/-/spec/opensearch/1.1/ startIndex"`
	PerPage int         `xml:"http://a9.com/-/spec/opensearch/1.1/ itemsPerPage"`
	Entries []atomEntry `xml:"http://www.w3.org/2005/Atom entry"`
}

type atomEntry struct {
	ID        string `xml:"http://www.w3.org/2005/Atom id"`
	Title     string `xml:"http://www.w3.org/2005/Atom title"`
	Summary   string `xml:"http://www.w3.org/2005/Atom summary"`
	Published string `xml:"http://www.w3.org/2005/Atom published"`
	Updated   string `xml:"http://www.w3.org/2005/Atom updated"`
	Authors   []struct {
		Name string `xml:"http://www.w3.org/2005/Atom name"`
	} `xml:"http://www.w3.org/2005/Atom author"`
	Categories []struct {
		Term string `xml:"term,attr"`
	} `xml:"http://www.w3.org/2005/Atom category"`
	Primary struct {
		Term string `xml:"term,attr"`
	} `xml:"http://arxiv.org/schemas/atom primary_category"`
	DOI        string `xml:"http://arxiv.org/schemas/atom doi"`
	JournalRef string `xml:"http://arxiv.org/schemas/atom journal_ref"`
}

// ParseAtom parses an arXiv query API answer, old (until 2025) or new
// (2026) format. arXiv reports bad queries as a feed with one entry whose id
// is under /api/errors; that comes back as an *APIError, whatever the HTTP
// status was.
func ParseAtom(body []byte) (AtomFeed, error) {
	var doc atomDoc
	if err := decodeXML("parse arXiv API", body, &doc); err != nil {
		return AtomFeed{}, err
	}
	f := AtomFeed{Total: doc.Total, Start: doc.Start, PerPage: doc.PerPage}
	for _, e := range doc.Entries {
		if strings.Contains(e.ID, "/api/errors") {
			return AtomFeed{}, &APIError{Service: "arxiv-api", Message: CleanSpace(e.Summary)}
		}
		id, v, ok := ParseArXivID(e.ID)
		if !ok {
			continue
		}
		r := Record{
			Source:    "arxiv-api",
			ArXivID:   id,
			Version:   v,
			Title:     CleanSpace(e.Title),
			Abstract:  CleanSpace(e.Summary),
			DOI:       firstDOI(e.DOI),
			Venue:     CleanSpace(e.JournalRef),
			URL:       absURL(id),
			Submitted: parseTime(e.Published, time.RFC3339),
			Announced: parseTime(e.Published, time.RFC3339),
			Updated:   parseTime(e.Updated, time.RFC3339),
			Announce:  AnnounceNew,
		}
		if v > 1 {
			r.Announce = AnnounceReplace
		}
		for _, a := range e.Authors {
			if n := CleanSpace(a.Name); n != "" {
				r.Authors = append(r.Authors, n)
			}
		}
		// Primary first: the new format lists it after the categories.
		if p := strings.TrimSpace(e.Primary.Term); p != "" {
			r.Categories = append(r.Categories, p)
		}
		for _, c := range e.Categories {
			if t := strings.TrimSpace(c.Term); t != "" && t != e.Primary.Term {
				r.Categories = append(r.Categories, t)
			}
		}
		f.Records = append(f.Records, r)
	}
	return f, nil
}
