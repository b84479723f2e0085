package sources

import (
	"time"

	"github.com/paperbot/paperbot/search"
)

// Announce says why a record appears in a source's listing.
type Announce string

const (
	// AnnounceNew is a paper appearing for the first time.
	AnnounceNew Announce = "new"
	// AnnounceCross is an existing paper cross-listed into a followed category.
	AnnounceCross Announce = "cross"
	// AnnounceReplace is a new version of a paper already announced.
	AnnounceReplace Announce = "replace"
	// AnnounceReplaceCross is a new version of a cross-listed paper.
	AnnounceReplaceCross Announce = "replace-cross"
	// AnnounceWithdrawn is a paper that should leave the index: an OAI-PMH
	// deleted record or an OpenReview withdrawn submission.
	AnnounceWithdrawn Announce = "withdrawn"
)

// IsUpdate reports whether a is a new version of a known paper, which updates
// it in place and is not news again.
func (a Announce) IsUpdate() bool { return a == AnnounceReplace || a == AnnounceReplaceCross }

// Record is one paper as a source reported it, normalised: identifiers in
// canonical form, white space collapsed. Fields a source does not carry are
// zero.
type Record struct {
	// Source names the format read: "arxiv-rss", "arxiv-rdf", "arxiv-oai",
	// "arxiv-api" or "openreview".
	Source string
	// ArXivID is the bare identifier without version ("2609.26811",
	// "hep-th/9901001"); Version is its version, 0 when unknown.
	ArXivID string
	Version int
	// OpenReviewID is the note (forum) id of an OpenReview submission.
	OpenReviewID string
	// DOI is lower-case without URL prefix (see NormDOI).
	DOI      string
	Title    string
	Abstract string
	Authors  []string
	// Categories are arXiv category codes, the primary first when known.
	Categories []string
	// Keywords are free-text subjects (OpenReview keywords, oai_dc subjects).
	Keywords []string
	Announce Announce
	// Announced is the announcement date (RSS pubDate, OpenReview pdate), or
	// the OAI-PMH datestamp for harvested records.
	Announced time.Time
	// Datestamp is the OAI-PMH header datestamp as sent (YYYY-MM-DD), what
	// from/until filter on.
	Datestamp string
	// Submitted is when the first version was submitted, when known (OAI-PMH
	// <created>, the API's <published>).
	Submitted time.Time
	// Updated is when the latest version was submitted, when known.
	Updated time.Time
	URL     string
	// Venue is where the paper appeared: a journal reference for arXiv, the
	// venue string for OpenReview ("ICLR 2024 poster"); VenueID is
	// OpenReview's content.venueid.
	Venue   string
	VenueID string
}

// Key is the record's identity across sources, strongest identifier first:
// "arxiv:<id>", "doi:<doi>", "openreview:<id>", else "title:<TitleKey>".
// Versions do not change it.
func (r Record) Key() string {
	switch {
	case r.ArXivID != "":
		return "arxiv:" + r.ArXivID
	case r.DOI != "":
		return "doi:" + r.DOI
	case r.OpenReviewID != "":
		return "openreview:" + r.OpenReviewID
	default:
		return "title:" + TitleKey(r.Title)
	}
}

// Keys are all the identities r can be matched by, strongest first: the
// Key forms for arXiv ID, DOI, OpenReview ID and title, each present only
// when r has it. Two records describe the same paper when they share any
// key; the title key alone is weaker (distinct papers can share a title), so
// callers may require it to agree with the authors.
func (r Record) Keys() []string {
	var keys []string
	if r.ArXivID != "" {
		keys = append(keys, "arxiv:"+r.ArXivID)
	}
	if r.DOI != "" {
		keys = append(keys, "doi:"+r.DOI)
	}
	if r.OpenReviewID != "" {
		keys = append(keys, "openreview:"+r.OpenReviewID)
	}
	if t := TitleKey(r.Title); t != "" {
		keys = append(keys, "title:"+t)
	}
	return keys
}

// Paper converts r into a search.Paper. ID is left empty (the index assigns
// it) and the abstract is not cleaned of markup beyond white space; search
// does that when it loads papers.
func (r Record) Paper() search.Paper {
	p := search.Paper{
		Title:    r.Title,
		Headline: r.Title,
		Authors:  append([]string(nil), r.Authors...),
		Venue:    r.Venue,
		URL:      r.URL,
		Abstract: r.Abstract,
		Keywords: append(append([]string(nil), r.Categories...), r.Keywords...),
		Source:   r.Source + "#" + r.Key(),
	}
	switch {
	case !r.Submitted.IsZero():
		p.Year = r.Submitted.Year()
	case !r.Announced.IsZero():
		p.Year = r.Announced.Year()
	case !r.Updated.IsZero():
		p.Year = r.Updated.Year()
	}
	if len(p.Keywords) == 0 {
		p.Keywords = nil
	}
	return p
}
