package sources

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// OAIPage is one page of an OAI-PMH ListRecords (or GetRecord) answer.
type OAIPage struct {
	ResponseDate time.Time
	Records      []Record
	// Token resumes the listing after this page; "" on the last page.
	Token string
	// Cursor and CompleteListSize are the token's attributes, -1 when the
	// server did not send them.
	Cursor           int
	CompleteListSize int
}

type oaiDoc struct {
	ResponseDate string `xml:"responseDate"`
	Errors       []struct {
		Code    string `xml:"code,attr"`
		Message string `xml:",chardata"`
	} `xml:"error"`
	ListRecords *struct {
		Records []oaiRecord `xml:"record"`
		Token   *struct {
			Value            string `xml:",chardata"`
			Cursor           string `xml:"cursor,attr"`
			CompleteListSize string `xml:"completeListSize,attr"`
		} `xml:"resumptionToken"`
	} `xml:"ListRecords"`
	GetRecord *struct {
		Records []oaiRecord `xml:"record"`
	} `xml:"GetRecord"`
}

type oaiRecord struct {
	Header struct {
		Status     string   `xml:"status,attr"`
		Identifier string   `xml:"identifier"`
		Datestamp  string   `xml:"datestamp"`
		Sets       []string `xml:"setSpec"`
	} `xml:"header"`
	Metadata struct {
		ArXiv *oaiArXiv `xml:"http://arxiv.org/OAI/arXiv/ arXiv"`
		Raw   *oaiRaw   `xml:"http://arxiv.org/OAI/arXivRaw/ arXivRaw"`
		DC    *oaiDC    `xml:"http://www.openarchives.org/OAI/2.0/oai_dc/ dc"`
	} `xml:"metadata"`
}

type oaiArXiv struct {
	ID      string `xml:"id"`
	Created string `xml:"created"`
	Updated string `xml:"updated"`
	Authors []struct {
		Keyname   string `xml:"keyname"`
		Forenames string `xml:"forenames"`
		Suffix    string `xml:"suffix"`
	} `xml:"authors>author"`
	Title      string `xml:"title"`
	Categories string `xml:"categories"`
	JournalRef string `xml:"journal-ref"`
	DOI        string `xml:"doi"`
	Abstract   string `xml:"abstract"`
}

type oaiRaw struct {
	ID       string `xml:"id"`
	Versions []struct {
		Version string `xml:"version,attr"`
		Date    string `xml:"date"`
	} `xml:"version"`
	Title      string `xml:"title"`
	Authors    string `xml:"authors"`
	Categories string `xml:"categories"`
	JournalRef string `xml:"journal-ref"`
	DOI        string `xml:"doi"`
	Abstract   string `xml:"abstract"`
}

type oaiDC struct {
	Titles       []string `xml:"http://purl.org/dc/elements/1.1/ title"`
	Creators     []string `xml:"http://purl.org/dc/elements/1.1/ creator"`
	Subjects     []string `xml:"http://purl.org/dc/elements/1.1/ subject"`
	Descriptions []string `xml:"http://purl.org/dc/elements/1.1/ description"`
	Dates        []string `xml:"http://purl.org/dc/elements/1.1/ date"`
	Identifiers  []string `xml:"http://purl.org/dc/elements/1.1/ identifier"`
}

// ParseOAI parses an OAI-PMH response carrying arXiv, arXivRaw or oai_dc
// metadata. An <error> element comes back as an *OAIError (match with
// errors.Is(err, ErrNoRecordsMatch) and so on). A deleted record becomes a
// Record with Announce AnnounceWithdrawn and only identifiers and datestamp.
//
// OAI-PMH does not say whether a record is new or a new version; Announce is
// AnnounceReplace when the metadata shows a later version (arXiv <updated>,
// several arXivRaw versions or oai_dc dates) and AnnounceNew otherwise.
func ParseOAI(body []byte) (OAIPage, error) {
	var doc oaiDoc
	if err := decodeXML("parse OAI-PMH", body, &doc); err != nil {
		return OAIPage{}, err
	}
	if len(doc.Errors) > 0 {
		e := doc.Errors[0]
		return OAIPage{}, &OAIError{Code: strings.TrimSpace(e.Code), Message: CleanSpace(e.Message)}
	}
	p := OAIPage{ResponseDate: parseTime(doc.ResponseDate, time.RFC3339), Cursor: -1, CompleteListSize: -1}
	var recs []oaiRecord
	switch {
	case doc.ListRecords != nil:
		recs = doc.ListRecords.Records
		if t := doc.ListRecords.Token; t != nil {
			p.Token = strings.TrimSpace(t.Value)
			p.Cursor = atoiOr(t.Cursor, -1)
			p.CompleteListSize = atoiOr(t.CompleteListSize, -1)
		}
	case doc.GetRecord != nil:
		recs = doc.GetRecord.Records
	default:
		return OAIPage{}, fmt.Errorf("parse OAI-PMH: neither ListRecords, GetRecord nor error: %w", ErrUnexpectedContent)
	}
	for _, or := range recs {
		if r, ok := oaiToRecord(or); ok {
			p.Records = append(p.Records, r)
		}
	}
	return p, nil
}

func atoiOr(s string, def int) int {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return def
	}
	return n
}

const oaiDate = "2006-01-02"

func oaiToRecord(or oaiRecord) (Record, bool) {
	h := or.Header
	r := Record{Source: "arxiv-oai", Datestamp: strings.TrimSpace(h.Datestamp)}
	r.Announced = parseTime(r.Datestamp, oaiDate, time.RFC3339)
	var ok bool
	if r.ArXivID, r.Version, ok = ParseArXivID(h.Identifier); !ok {
		return Record{}, false
	}
	r.URL = absURL(r.ArXivID)
	if h.Status == "deleted" {
		r.Announce = AnnounceWithdrawn
		return r, true
	}
	r.Announce = AnnounceNew
	m := or.Metadata
	switch {
	case m.ArXiv != nil:
		a := m.ArXiv
		r.Title = CleanSpace(a.Title)
		r.Abstract = CleanSpace(a.Abstract)
		for _, au := range a.Authors {
			name := CleanSpace(au.Forenames + " " + au.Keyname + " " + au.Suffix)
			if name != "" {
				r.Authors = append(r.Authors, name)
			}
		}
		r.Categories = strings.Fields(a.Categories)
		r.DOI = firstDOI(a.DOI)
		r.Venue = CleanSpace(a.JournalRef)
		r.Submitted = parseTime(a.Created, oaiDate)
		if u := parseTime(a.Updated, oaiDate); !u.IsZero() {
			r.Updated = u
			r.Announce = AnnounceReplace
		}
	case m.Raw != nil:
		a := m.Raw
		r.Title = CleanSpace(a.Title)
		r.Abstract = CleanSpace(a.Abstract)
		r.Authors = splitAuthors(a.Authors)
		r.Categories = strings.Fields(a.Categories)
		r.DOI = firstDOI(a.DOI)
		r.Venue = CleanSpace(a.JournalRef)
		if n := len(a.Versions); n > 0 {
			last := a.Versions[n-1]
			r.Version = atoiOr(strings.TrimPrefix(last.Version, "v"), 0)
			r.Updated = parseTime(last.Date, time.RFC1123, time.RFC1123Z)
			r.Submitted = parseTime(a.Versions[0].Date, time.RFC1123, time.RFC1123Z)
			if n > 1 {
				r.Announce = AnnounceReplace
			}
		}
	case m.DC != nil:
		d := m.DC
		if len(d.Titles) > 0 {
			r.Title = CleanSpace(d.Titles[0])
		}
		for _, c := range d.Creators {
			// oai_dc writes "Last, First"; show "First Last".
			last, first, found := strings.Cut(CleanSpace(c), ", ")
			if found {
				c = first + " " + last
			}
			if c = CleanSpace(c); c != "" {
				r.Authors = append(r.Authors, c)
			}
		}
		r.Keywords = cleanList(d.Subjects)
		for _, desc := range d.Descriptions {
			// arXiv puts comments in a second description starting "Comment:".
			if desc = CleanSpace(desc); desc != "" && !strings.HasPrefix(desc, "Comment:") {
				r.Abstract = desc
				break
			}
		}
		for _, id := range d.Identifiers {
			if doi := NormDOI(id); doi != "" {
				r.DOI = doi
			}
		}
		if len(d.Dates) > 0 {
			r.Submitted = parseTime(d.Dates[0], oaiDate)
		}
		if len(d.Dates) > 1 {
			r.Updated = parseTime(d.Dates[len(d.Dates)-1], oaiDate)
			r.Announce = AnnounceReplace
		}
	}
	return r, true
}

// firstDOI normalises the first of the space-separated DOIs arXiv allows.
func firstDOI(s string) string {
	for _, f := range strings.Fields(s) {
		if d := NormDOI(f); d != "" {
			return d
		}
	}
	return ""
}
