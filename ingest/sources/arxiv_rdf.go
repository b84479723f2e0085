package sources

import (
	"html"
	"regexp"
	"strings"
	"time"
)

// The RSS 1.0/RDF feed is what arXiv served until early 2024. Item titles
// carry the identifier, primary category and announcement kind; descriptions
// and creators are HTML.

type rdf struct {
	Channel struct {
		Title string `xml:"http://purl.org/rss/1.0/ title"`
		Date  string `xml:"http://purl.org/dc/elements/1.1/ date"`
	} `xml:"http://purl.org/rss/1.0/ channel"`
	Items []struct {
		Title       string `xml:"http://purl.org/rss/1.0/ title"`
		Link        string `xml:"http://purl.org/rss/1.0/ link"`
		Description string `xml:"http://purl.org/rss/1.0/ description"`
		Creator     string `xml:"http://purl.org/dc/elements/1.1/ creator"`
	} `xml:"http://purl.org/rss/1.0/ item"`
}

// rdfTitleRe splits an RSS 1.0 title: "Title. (arXiv:1805.06430v2 [nucl-th] UPDATED)".
var rdfTitleRe = regexp.MustCompile(`(?s)^(.*?)\s*\(arXiv:(\S+)\s+\[([^\]]+)\]\s*([A-Z ]*?)\s*\)\s*$`)

var tagRe = regexp.MustCompile(`<[^>]*>`)

// stripHTML turns an HTML fragment (RDF descriptions and creators) into text.
func stripHTML(s string) string {
	return CleanSpace(html.UnescapeString(tagRe.ReplaceAllString(s, " ")))
}

func parseRDF(body []byte) (Feed, error) {
	var doc rdf
	if err := decodeXML("parse arXiv RDF", body, &doc); err != nil {
		return Feed{}, err
	}
	f := Feed{Title: CleanSpace(doc.Channel.Title), Date: parseTime(doc.Channel.Date, time.RFC3339)}
	for _, it := range doc.Items {
		title := CleanSpace(it.Title)
		r := Record{Source: "arxiv-rdf", Announce: AnnounceNew, Announced: f.Date}
		if m := rdfTitleRe.FindStringSubmatch(title); m != nil {
			// arXiv appended ". (arXiv:...)" to the title; drop the dot it added.
			title = strings.TrimSuffix(m[1], ".")
			r.ArXivID, r.Version, _ = ParseArXivID(m[2])
			r.Categories = []string{m[3]}
			switch m[4] {
			case "CROSS LISTED":
				r.Announce = AnnounceCross
			case "UPDATED":
				r.Announce = AnnounceReplace
			}
		}
		if r.ArXivID == "" {
			var ok bool
			if r.ArXivID, r.Version, ok = ParseArXivID(it.Link); !ok {
				continue
			}
		}
		r.Title = title
		r.Abstract = stripHTML(it.Description)
		r.Authors = splitAuthors(stripHTML(it.Creator))
		r.URL = absURL(r.ArXivID)
		f.Records = append(f.Records, r)
	}
	return f, nil
}
