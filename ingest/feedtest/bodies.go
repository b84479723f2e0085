package feedtest

import (
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Recorded files this package adapts (see shared/feeds/README.md).
const (
	rssFile       = "arxiv-rss-2026-cs.LG+cs.AI+cs.CL+stat.ML-trimmed.xml"
	oaiFile       = "arxiv-oai-2026-listrecords-arXiv-set-physics.plasm-ph-oaipmh.arxiv.org.xml"
	orListFile    = "openreview-v2-notes-iclr2024-listing-count2260-trimmed3-scrubbed.json"
	orWithdrawn   = "openreview-v2-notes-iclr2024-withdrawn-limit1-scrubbed.json"
	rssDateLayout = "Mon, 02 Jan 2006 15:04:05 -0700"
)

// Paper is one paper a fake service announces.
type Paper struct {
	// ArXivID without version; Version defaults to 1.
	ArXivID string
	Version int
	// OpenReviewID makes it an OpenReview note instead.
	OpenReviewID string
	Title        string
	Abstract     string
	Authors      []string
	Categories   []string
	// Announce is the RSS announce type: new (default), cross, replace.
	Announce string
	DOI      string
	// Created is the v1 submission day (OAI-PMH), YYYY-MM-DD.
	Created string
}

// Recorded holds the recorded bodies, read once.
type Recorded struct {
	rss, oai             string
	orList, orWithdrawal []byte
}

// Load reads the recorded bodies from dir (tests pass ../../shared/feeds).
func Load(dir string) (*Recorded, error) {
	read := func(name string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, name)) }
	rss, err := read(rssFile)
	if err != nil {
		return nil, err
	}
	oai, err := read(oaiFile)
	if err != nil {
		return nil, err
	}
	orList, err := read(orListFile)
	if err != nil {
		return nil, err
	}
	orW, err := read(orWithdrawn)
	if err != nil {
		return nil, err
	}
	return &Recorded{rss: string(rss), oai: string(oai), orList: orList, orWithdrawal: orW}, nil
}

// RSS is the recorded feed's channel announcing the recorded items (when
// withRecorded) and papers on day (midnight US Eastern, as arXiv dates it).
func (r *Recorded) RSS(day time.Time, withRecorded bool, papers ...Paper) []byte {
	head, rest, _ := strings.Cut(r.rss, "<item>")
	items := "<item>" + rest[:strings.LastIndex(rest, "</channel>")]
	date := day.Format(rssDateLayout)
	head = replaceTag(head, "pubDate", date)
	var b strings.Builder
	b.WriteString(head)
	if withRecorded {
		b.WriteString(strings.ReplaceAll(items, "Thu, 24 Sep 2026 00:00:00 -0400", date))
	}
	for _, p := range papers {
		v, ann := version(p), p.Announce
		if ann == "" {
			ann = "new"
		}
		fmt.Fprintf(&b, `<item>
      <title>%s</title>
      <link>https://arxiv.org/abs/%s</link>
      <description>arXiv:%sv%d Announce Type: %s 
Abstract: %s</description>
      <guid isPermaLink="false">oai:arXiv.org:%sv%d</guid>
`, x(p.Title), p.ArXivID, p.ArXivID, v, ann, x(p.Abstract), p.ArXivID, v)
		for _, c := range p.Categories {
			fmt.Fprintf(&b, "      <category>%s</category>\n", x(c))
		}
		fmt.Fprintf(&b, "      <pubDate>%s</pubDate>\n      <arxiv:announce_type>%s</arxiv:announce_type>\n", date, ann)
		if p.DOI != "" {
			fmt.Fprintf(&b, "      <arxiv:DOI>%s</arxiv:DOI>\n", x(p.DOI))
		}
		fmt.Fprintf(&b, "      <dc:creator>%s</dc:creator>\n    </item>\n", x(strings.Join(authors(p), ", ")))
	}
	b.WriteString("  </channel>\n</rss>\n")
	return []byte(b.String())
}

// OAIPage is a ListRecords page in the recorded 2026 envelope with papers
// stamped datestamp, and token as its resumptionToken ("" on the last page).
func (r *Recorded) OAIPage(datestamp, token string, papers ...Paper) []byte {
	head, _, _ := strings.Cut(r.oai, "<record>")
	var b strings.Builder
	b.WriteString(head)
	for _, p := range papers {
		created := p.Created
		if created == "" {
			created = datestamp
		}
		fmt.Fprintf(&b, `<record><header><identifier>oai:arXiv.org:%s</identifier><datestamp>%s</datestamp></header>
<metadata><arXiv xmlns="http://arxiv.org/OAI/arXiv/"><id>%s</id><created>%s</created><authors>`, p.ArXivID, datestamp, p.ArXivID, created)
		for _, a := range authors(p) {
			last, first := a, ""
			if i := strings.LastIndex(a, " "); i > 0 {
				first, last = a[:i], a[i+1:]
			}
			fmt.Fprintf(&b, "<author><keyname>%s</keyname><forenames>%s</forenames></author>", x(last), x(first))
		}
		fmt.Fprintf(&b, "</authors><title>%s</title><categories>%s</categories>", x(p.Title), x(strings.Join(p.Categories, " ")))
		if p.DOI != "" {
			fmt.Fprintf(&b, "<doi>%s</doi>", x(p.DOI))
		}
		fmt.Fprintf(&b, "<abstract>%s</abstract></arXiv></metadata></record>\n", x(p.Abstract))
	}
	if token != "" {
		fmt.Fprintf(&b, `<resumptionToken cursor="0" completeListSize="2000">%s</resumptionToken>`, x(token))
	}
	b.WriteString("</ListRecords></OAI-PMH>\n")
	return []byte(strings.Replace(b.String(), "<ListRecords>", "<ListRecords>\n", 1))
}

// NoRecordsMatch is OAI-PMH's answer to a harvest that matches nothing
// (written from the protocol; no recorded one exists, see the README).
func NoRecordsMatch() []byte {
	return []byte(`<?xml version="1.0" encoding="UTF-8"?>
<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2026-09-28T05:00:00Z</responseDate>
<request verb="ListRecords">http://oaipmh.arxiv.org/oai</request><error code="noRecordsMatch">No records match</error></OAI-PMH>
`)
}

// OpenReviewNotes is the recorded accepted listing (its three scrubbed
// notes, when withRecorded) plus papers as notes of venue, count set.
func (r *Recorded) OpenReviewNotes(venue string, withRecorded bool, papers ...Paper) []byte {
	return r.notes(r.orList, venue, venue, "ICLR 2026 poster", withRecorded, papers)
}

// OpenReviewWithdrawn is the recorded withdrawn listing plus papers as
// withdrawn notes of venue.
func (r *Recorded) OpenReviewWithdrawn(venue string, papers ...Paper) []byte {
	return r.notes(r.orWithdrawal, venue+"/Withdrawn_Submission", venue+"/Withdrawn_Submission", "ICLR 2026 Conference Withdrawn Submission", true, papers)
}

func (r *Recorded) notes(body []byte, _ string, venueID, venue string, withRecorded bool, papers []Paper) []byte {
	var doc map[string]any
	if err := json.Unmarshal(body, &doc); err != nil {
		panic(err) // the recorded files are checked by the sources tests
	}
	notes, _ := doc["notes"].([]any)
	tmpl := notes[0].(map[string]any)
	if !withRecorded {
		notes = nil
	}
	for i, p := range papers {
		n := clone(tmpl)
		n["id"], n["forum"], n["number"] = p.OpenReviewID, p.OpenReviewID, 9000+i
		c := n["content"].(map[string]any)
		c["title"] = map[string]any{"value": p.Title}
		c["abstract"] = map[string]any{"value": p.Abstract}
		c["authors"] = map[string]any{"value": authors(p)}
		c["venue"] = map[string]any{"value": venue}
		c["venueid"] = map[string]any{"value": venueID}
		notes = append(notes, n)
	}
	doc["notes"] = notes
	if _, ok := doc["count"]; ok {
		doc["count"] = len(notes)
	}
	out, err := json.Marshal(doc)
	if err != nil {
		panic(err)
	}
	return out
}

func clone(m map[string]any) map[string]any {
	b, _ := json.Marshal(m)
	var out map[string]any
	json.Unmarshal(b, &out)
	return out
}

func version(p Paper) int {
	if p.Version == 0 {
		return 1
	}
	return p.Version
}

func authors(p Paper) []string {
	if len(p.Authors) == 0 {
		return []string{"Ada Lovelace", "Alan Turing"}
	}
	return p.Authors
}

// replaceTag replaces the text of the first <tag>...</tag> in s.
func replaceTag(s, tag, text string) string {
	open, end := "<"+tag+">", "</"+tag+">"
	i := strings.Index(s, open)
	j := strings.Index(s, end)
	if i < 0 || j < i {
		return s
	}
	return s[:i+len(open)] + text + s[j:]
}

// x escapes s for XML text, dropping characters XML 1.0 cannot carry (the
// real services never send them).
func x(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0xFFFE || r == 0xFFFF {
			return -1
		}
		return r
	}, s)
	return html.EscapeString(s)
}
