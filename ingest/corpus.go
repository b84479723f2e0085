package ingest

import (
	"github.com/paperbot/paperbot/search"
	"github.com/paperbot/paperbot/search/sources"
)

// Corpus returns files with the catalog's papers added: every entry not
// withdrawn, except those a file already holds (same normalised title; the
// file's paper and ID win, one paper one card; catalog entries were merged
// already). files is not changed. The
// result is what the index is built from, so fetched papers survive
// restarts and full rebuilds.
func (c *Catalog) Corpus(files *search.Corpus) *search.Corpus {
	out := &search.Corpus{}
	if files != nil {
		*out = *files
		out.Papers = append([]search.Paper(nil), files.Papers...)
	}
	titles := make(map[string]bool, len(out.Papers))
	ids := make(map[string]bool, len(out.Papers))
	for _, p := range out.Papers {
		titles[sources.TitleKey(p.Title)] = true
		ids[p.ID] = true
	}
	for _, e := range c.Entries() {
		if e.Withdrawn {
			continue
		}
		p := e.Paper()
		if t := sources.TitleKey(p.Title); t != "" && titles[t] || ids[p.ID] {
			out.Duplicates++
			continue
		}
		ids[p.ID] = true
		out.Papers = append(out.Papers, p)
	}
	return out
}

// Batch is the index change that brings entries into an index: withdrawn
// papers deleted, the others added or replaced in place under their IDs.
// Entries InFiles are left out: the index holds the file's copy under that
// ID (the fetcher matched them by title when they were first seen).
func Batch(entries []Entry) search.Batch {
	var b search.Batch
	for _, e := range entries {
		if e.InFiles {
			continue
		}
		if e.Withdrawn {
			b.Delete = append(b.Delete, e.ID)
		} else {
			b.Upsert = append(b.Upsert, e.Paper())
		}
	}
	return b
}
