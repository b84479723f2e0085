// Package corpus loads paper corpora (CSV, TSV, JSON, JSON Lines and text
// files), cleans their text, gives papers stable IDs and headlines, and
// splits text into sentences: the half of paperbot's search that needs no
// index. Package search indexes what it loads. It imports only the standard
// library and paperbot's fault.
package corpus

import "time"

// Paper is one paper of a corpus, cleaned for display.
type Paper struct {
	// ID is short (at most 8 characters), typeable, and stable across restarts
	// and reloads of the same corpus.
	ID string `json:"id"`
	// Title is empty when the corpus has none.
	Title string `json:"title"`
	// Headline is Title, or a readable line of at most 100 characters derived
	// from the abstract when there is no title.
	Headline string   `json:"headline"`
	Authors  []string `json:"authors"`
	Venue    string   `json:"venue"`
	Year     int      `json:"year"` // 0 when unknown
	URL      string   `json:"url"`
	// CodeURLs are links found in the abstract (code repositories, project pages).
	CodeURLs []string `json:"code_urls"`
	// Abstract is the cleaned abstract: markup turned into readable text.
	Abstract string   `json:"abstract"`
	Keywords []string `json:"keywords,omitempty"`
	// Categories are arXiv categories ("cs.CL"), the primary one first;
	// empty when unknown.
	Categories []string `json:"categories,omitempty"`
	// Announced is when the paper was announced (arXiv's listing date);
	// zero when unknown.
	Announced time.Time `json:"announced,omitzero"`
	// FirstSeen is when paperbot first indexed the paper. The index sets it
	// when a paper is added with it zero and keeps it when the paper is
	// updated; it is not part of the paper's content (ContentHash).
	FirstSeen time.Time `json:"first_seen,omitzero"`
	// Source names where the paper was read from, as "file:line" or "file#record".
	Source string `json:"-"`
}

// HasCode reports whether the abstract links to code or a project page.
func (p Paper) HasCode() bool { return len(p.CodeURLs) > 0 }

// Corpus is a loaded, de-duplicated set of papers.
type Corpus struct {
	Papers []Paper
	// Skipped counts records that could not be used; Problems says why, one
	// "file:line: reason" each (capped, so a bad file cannot flood the log).
	Skipped  int
	Problems []string
	// Duplicates counts papers dropped because the same title or abstract was
	// already loaded.
	Duplicates int
	// Files are the files read, in the order read.
	Files []string
}

// Len is the number of papers.
func (c *Corpus) Len() int { return len(c.Papers) }

// Each calls fn with every paper in order; an error from fn stops it and is
// returned. p points into c.Papers: fn must not keep it.
func (c *Corpus) Each(fn func(p *Paper) error) error {
	for i := range c.Papers {
		if err := fn(&c.Papers[i]); err != nil {
			return err
		}
	}
	return nil
}
