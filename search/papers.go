package search

import (
	"fmt"
	"slices"

	"github.com/paperbot/paperbot/search/corpus"
)

// Papers is a loaded corpus as Open and Reload read it: one paper at a
// time, so a build need not hold the corpus in memory. *Corpus (in memory)
// and *Spool (in a temporary file) are Papers.
type Papers interface {
	// Len is the number of papers Each yields.
	Len() int
	// Each calls fn with every paper in order; fn must not keep p.
	Each(fn func(p *Paper) error) error
	// Report says what the load skipped, dropped and read.
	Report() LoadReport
}

// LoadReport is corpus.Report: what a load found besides the papers.
type LoadReport = corpus.Report

// noPapers reports whether c is nil, or a nil *Corpus.
func noPapers(c Papers) bool {
	switch v := c.(type) {
	case nil:
		return true
	case *Corpus:
		return v == nil
	case *Spool:
		return v == nil
	}
	return false
}

// manifestOf reads c's IDs and content hashes, and rejects a paper without
// an ID or with one used twice.
func manifestOf(c Papers) (manifest, error) {
	m := make(manifest, 0, c.Len())
	err := c.Each(func(p *Paper) error {
		if p.ID == "" {
			return badID(p)
		}
		m = append(m, entryOf(p))
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(m, compareEntries)
	for i := 1; i < len(m); i++ {
		if m[i].ID == m[i-1].ID {
			return nil, repeatedID(c, m[i].ID)
		}
	}
	return m, nil
}

// repeatedID is the error for an ID two papers share, naming where the
// second one came from.
func repeatedID(c Papers, id string) error {
	var err error
	seen := false
	_ = c.Each(func(p *Paper) error {
		if p.ID != id {
			return nil
		}
		if seen {
			err = badID(p)
			return err
		}
		seen = true
		return nil
	})
	if err == nil {
		err = &Error{Op: opOpen, Kind: Invalid, Msg: fmt.Sprintf("the corpus has a repeated paper ID %q", id)}
	}
	return err
}

func badID(p *Paper) error {
	return &Error{Op: opOpen, Kind: Invalid, Msg: fmt.Sprintf("the corpus has a missing or repeated paper ID %q (%s)", p.ID, p.Source)}
}
