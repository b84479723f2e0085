package sources

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"regexp"
	"strings"
	"time"
)

// Feed is one arXiv announcement feed: the day's new, cross-listed and
// replaced papers of the requested categories.
type Feed struct {
	Title string
	// Date is the announcement date of the feed (RSS 2.0 pubDate, RDF
	// dc:date); zero when the feed does not say.
	Date    time.Time
	Records []Record
}

type rss2 struct {
	Channel struct {
		Title   string     `xml:"title"`
		PubDate string     `xml:"pubDate"`
		Items   []rss2Item `xml:"item"`
	} `xml:"channel"`
}

type rss2Item struct {
	Title       string   `xml:"title"`
	Link        string   `xml:"link"`
	Description string   `xml:"description"`
	GUID        string   `xml:"guid"`
	Categories  []string `xml:"category"`
	PubDate     string   `xml:"pubDate"`
	Announce    string   `xml:"http://arxiv.org/schemas/atom announce_type"`
	DOI         string   `xml:"http://arxiv.org/schemas/atom DOI"`
	JournalRef  string   `xml:"http://arxiv.org/schemas/atom journal_reference"`
	Creator     string   `xml:"http://purl.org/dc/elements/1.1/ creator"`
}

var rssDateLayouts = []string{time.RFC1123Z, time.RFC1123, "Mon, 2 Jan 2006 15:04:05 -0700"}

// ParseRSS parses an arXiv announcement feed in either format arXiv has
// served: RSS 2.0 with arxiv:announce_type (2024 on) or RSS 1.0/RDF (before).
// Items without an arXiv identifier are skipped; an announce type other
// than the four documented ones is kept as sent, lower-cased, so callers can
// see it. A feed without items is not an error: arXiv announces nothing on
// weekends and holidays. Errors wrap
// ErrUnexpectedContent for HTML pages and ErrTruncated for cut-off bodies.
func ParseRSS(body []byte) (Feed, error) {
	root, err := rootName(body)
	if err != nil {
		return Feed{}, fmt.Errorf("parse arXiv feed: %w", err)
	}
	switch root.Local {
	case "rss":
		return parseRSS2(body)
	case "RDF":
		return parseRDF(body)
	default:
		return Feed{}, fmt.Errorf("parse arXiv feed: root element <%s>: %w", root.Local, ErrUnexpectedContent)
	}
}

// rootName returns the name of the first element of an XML body.
func rootName(body []byte) (xml.Name, error) {
	if looksHTML(body) {
		return xml.Name{}, fmt.Errorf("got an HTML page: %w", ErrUnexpectedContent)
	}
	d := xml.NewDecoder(bytes.NewReader(body))
	for {
		tok, err := d.Token()
		if err != nil {
			return xml.Name{}, fmt.Errorf("no root element: %w: %v", ErrTruncated, err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			return se.Name, nil
		}
	}
}

// rssAbstractRe splits an RSS 2.0 description: "arXiv:IDvN Announce Type: T \nAbstract: ...".
var rssAbstractRe = regexp.MustCompile(`(?s)^\s*arXiv:\S+\s+Announce Type:\s*\S+\s*Abstract:\s*(.*)$`)

func parseRSS2(body []byte) (Feed, error) {
	var doc rss2
	if err := decodeXML("parse arXiv RSS", body, &doc); err != nil {
		return Feed{}, err
	}
	f := Feed{Title: CleanSpace(doc.Channel.Title), Date: parseTime(doc.Channel.PubDate, rssDateLayouts...)}
	for _, it := range doc.Channel.Items {
		id, v, ok := ParseArXivID(it.GUID)
		if !ok {
			if id, v, ok = ParseArXivID(it.Link); !ok {
				continue
			}
		}
		abs := it.Description
		if m := rssAbstractRe.FindStringSubmatch(abs); m != nil {
			abs = m[1]
		}
		r := Record{
			Source:     "arxiv-rss",
			ArXivID:    id,
			Version:    v,
			DOI:        firstDOI(it.DOI),
			Title:      CleanSpace(it.Title),
			Abstract:   CleanSpace(abs),
			Authors:    splitAuthors(it.Creator),
			Categories: cleanList(it.Categories),
			Announce:   Announce(strings.ToLower(strings.TrimSpace(it.Announce))),
			Announced:  parseTime(it.PubDate, rssDateLayouts...),
			URL:        absURL(id),
			Venue:      CleanSpace(it.JournalRef),
		}
		if r.Announce == "" {
			r.Announce = AnnounceNew
		}
		if r.Announced.IsZero() {
			r.Announced = f.Date
		}
		f.Records = append(f.Records, r)
	}
	return f, nil
}

// absURL is the version-less abstract page of an arXiv paper.
func absURL(id string) string { return "https://arxiv.org/abs/" + id }

func cleanList(in []string) []string {
	var out []string
	for _, s := range in {
		if s = CleanSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
