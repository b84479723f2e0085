package ingest

import (
	"regexp"
	"slices"
	"time"

	"github.com/paperbot/paperbot/ingest/sources"
	"github.com/paperbot/paperbot/search"
)

// Entry is one paper of the catalog: the latest version any source
// reported, and what paperbot knows about its arrival.
type Entry struct {
	// ID is the paperbot paper ID, fixed when the paper was first seen: new
	// versions, cross-lists and other sources keep it.
	ID string `json:"id"`
	// Keys are every identity the paper was announced under (arxiv:, doi:,
	// openreview:, title:), strongest first.
	Keys []string `json:"keys"`
	// Record is the latest version seen.
	Record sources.Record `json:"record"`
	// Categories are every arXiv category it was announced in, primary first.
	Categories []string `json:"categories,omitempty"`
	// FirstSeen is when paperbot first saw the paper; Announced when its
	// first source announced it (RSS day, OAI datestamp, OpenReview pdate).
	FirstSeen time.Time `json:"first_seen"`
	Announced time.Time `json:"announced,omitzero"`
	// Changed is when a source last changed the entry.
	Changed time.Time `json:"changed"`
	// News is false for a paper first seen as a new version of an older
	// paper (an arXiv replace of something announced before paperbot
	// followed the category): it is searchable but never a digest's news.
	News bool `json:"news"`
	// Withdrawn papers stay in the catalog, so a later listing does not
	// bring them back, but leave the index.
	Withdrawn bool `json:"withdrawn,omitempty"`
	// InFiles marks a paper the operator's files already held when it was
	// first fetched (same normalised title): ID is the file paper's, and the
	// index keeps the file's copy whatever the sources announce later (one
	// paper, one card; the operator's copy wins). Never news.
	InFiles bool `json:"in_files,omitempty"`
}

// Paper is the entry as the index holds it: abstract cleaned like a file's,
// categories among the keywords (so the search's keyword field finds
// cs.LG).
func (e Entry) Paper() search.Paper {
	p := e.Record.Paper()
	p.ID = e.ID
	p.Abstract, p.CodeURLs = search.CleanText(p.Abstract)
	if len(p.CodeURLs) > search.MaxCodeLinks {
		p.CodeURLs = p.CodeURLs[:search.MaxCodeLinks]
	}
	p.Headline = search.Headline(p.Title, p.Abstract)
	kw := append([]string(nil), e.Categories...)
	for _, k := range p.Keywords {
		if !slices.Contains(kw, k) {
			kw = append(kw, k)
		}
	}
	p.Keywords = kw
	if len(p.Keywords) == 0 {
		p.Keywords = nil
	}
	if p.Year == 0 && !e.Announced.IsZero() {
		p.Year = e.Announced.Year()
	}
	p.Categories = append([]string(nil), e.Categories...)
	p.Announced, p.FirstSeen = e.Announced, e.FirstSeen
	return p
}

// withdrawalText matches the abstract arXiv gives a withdrawn paper's last
// version ("This paper has been withdrawn by the author ...").
var withdrawalText = regexp.MustCompile(`(?i)^\s*(this (paper|article|manuscript|submission|work) (has been|is|was) withdrawn|withdrawn\b)`)

// withdrawal reports whether r takes its paper out of the index.
func withdrawal(r sources.Record) bool {
	return r.Announce == sources.AnnounceWithdrawn || (r.Announce.IsUpdate() || r.Version > 1) && withdrawalText.MatchString(r.Abstract)
}

// staleAfter is how long after its first version a harvested arXiv record
// is taken for a new version of an old paper rather than a new one (OAI-PMH
// lists both by the day of their last change).
const staleAfter = 14 * 24 * time.Hour

// news reports whether r, a paper not yet in the catalog, is a new paper.
func news(r sources.Record) bool {
	if r.Announce.IsUpdate() {
		return false
	}
	if r.Source == "arxiv-oai" && !r.Submitted.IsZero() && !r.Announced.IsZero() && r.Announced.Sub(r.Submitted) > staleAfter {
		return false
	}
	return true
}
