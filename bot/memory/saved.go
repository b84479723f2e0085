package memory

import (
	"cmp"
	"slices"
	"time"

	"github.com/paperbot/paperbot/fault"
	"github.com/paperbot/paperbot/search"
)

// Saved is one paper on a reading list.
type Saved struct {
	// Paper is a copy of the paper as it was when saved, without its
	// abstract: a paper that later leaves the index still shows and exports.
	Paper   search.Paper `json:"paper"`
	SavedAt time.Time    `json:"saved_at"`
	// SavedBy is the user who saved it ("" once they asked to be forgotten).
	SavedBy string `json:"saved_by,omitempty"`
	Read    bool   `json:"read,omitempty"`
}

// Snapshot is p as a list keeps it: what a card and a BibTeX entry need.
func Snapshot(p search.Paper) search.Paper {
	p.Abstract, p.CodeURLs, p.Keywords, p.Source = "", nil, nil, ""
	return p
}

// Validate refuses an entry a list cannot show.
func (s Saved) Validate() error {
	if s.Paper.ID == "" {
		return fault.E("save", fault.Invalid, "the paper has no ID")
	}
	if s.SavedAt.IsZero() {
		return fault.E("save", fault.Invalid, "the entry has no time")
	}
	return nil
}

// SortSaved puts a list in the Store order: newest first, then by paper ID.
func SortSaved(list []Saved) {
	slices.SortFunc(list, func(a, b Saved) int {
		return cmp.Or(b.SavedAt.Compare(a.SavedAt), cmp.Compare(a.Paper.ID, b.Paper.ID))
	})
}
