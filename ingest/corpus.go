package ingest

import (
	"hash/maphash"

	"github.com/paperbot/paperbot/ingest/sources"
	"github.com/paperbot/paperbot/search"
)

// Corpus is Papers(files) in memory: files is not changed.
func (c *Catalog) Corpus(files *search.Corpus) *search.Corpus {
	var in search.Papers = &search.Corpus{}
	if files != nil {
		in = files
	}
	merged := c.Papers(in)
	out := &search.Corpus{Papers: make([]search.Paper, 0, merged.Len())}
	r := merged.Report()
	out.Skipped, out.Problems, out.Duplicates, out.Files = r.Skipped, r.Problems, r.Duplicates, r.Files
	_ = merged.Each(func(p *search.Paper) error {
		out.Papers = append(out.Papers, *p)
		return nil
	})
	return out
}

// Papers returns files followed by the catalog's papers: every entry not
// withdrawn, except those a file already holds (same normalised title or
// ID; the file's paper and ID win, one paper one card; catalog entries were
// merged already). The result is what the index is built from, so fetched
// papers survive restarts and full rebuilds. It reads files once, keeping
// 64-bit fingerprints of their titles and IDs (16 bytes a paper, so a
// million file papers cost megabytes, not the papers); two different
// titles sharing one would leave a catalog paper out, with odds of about
// one in 10¹³ at a million papers.
func (c *Catalog) Papers(files search.Papers) search.Papers {
	entries := c.Entries()
	if len(entries) == 0 {
		return files // nothing to add: no need to read the files
	}
	seed := maphash.MakeSeed()
	key := func(s string) uint64 { return maphash.String(seed, s) }
	titles := make(map[uint64]struct{}, files.Len())
	ids := make(map[uint64]struct{}, files.Len())
	_ = files.Each(func(p *search.Paper) error {
		if t := sources.TitleKey(p.Title); t != "" {
			titles[key(t)] = struct{}{}
		}
		ids[key(p.ID)] = struct{}{}
		return nil
	})
	m := &withCatalog{files: files}
	for _, e := range entries {
		if e.Withdrawn {
			continue
		}
		p := e.Paper()
		_, sameTitle := titles[key(sources.TitleKey(p.Title))]
		_, sameID := ids[key(p.ID)]
		if sameTitle && sources.TitleKey(p.Title) != "" || sameID {
			m.dups++
			continue
		}
		ids[key(p.ID)] = struct{}{}
		m.extra = append(m.extra, p)
	}
	return m
}

// withCatalog is a corpus's papers followed by the catalog's.
type withCatalog struct {
	files search.Papers
	extra []search.Paper
	dups  int
}

func (m *withCatalog) Len() int { return m.files.Len() + len(m.extra) }

func (m *withCatalog) Report() search.LoadReport {
	r := m.files.Report()
	r.Papers += len(m.extra)
	r.Duplicates += m.dups
	return r
}

func (m *withCatalog) Each(fn func(p *search.Paper) error) error {
	if err := m.files.Each(fn); err != nil {
		return err
	}
	for i := range m.extra {
		p := m.extra[i]
		if err := fn(&p); err != nil {
			return err
		}
	}
	return nil
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
