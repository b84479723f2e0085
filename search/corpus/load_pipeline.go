package corpus

import (
	"fmt"
	"strings"
	"sync/atomic"
)

// chunkSize is how many raw records are cleaned together: enough to keep
// every CPU busy, few enough that a chunk's text is a few MB.
const chunkSize = 2048

// sink receives the kept papers of a load, cleaned and in file order,
// without IDs (those come once every paper is known). p is not kept by the
// caller after put returns.
type sink interface {
	put(p *Paper) error
}

// pipeline is the half of a load after parsing: chunks of raw records are
// cleaned on all CPUs, then checked and de-duplicated in order, and the
// kept papers go to a sink. It runs beside the parser in its own
// goroutine; what it keeps per paper is only the digest its ID is made
// from (see assignIDs).
type pipeline struct {
	in     chan []rawPaper
	done   chan struct{}
	failed atomic.Bool // set when the sink failed: later chunks are dropped
	err    error       // the sink's error; read after done

	sink       sink
	seen       fingerprints
	kept       []idDigest
	buf        []byte
	duplicates int
	// Problems found after cleaning, kept apart from the parser's so that
	// they follow them in Corpus.Problems, as they did when every file was
	// parsed before any record was cleaned.
	problemLog
	// listings are papers with a title and no abstract, held back so that
	// the full record of the same paper, later in the files, is the one
	// kept (see keepListings).
	listings []listing
}

type listing struct {
	paper Paper
	key   idDigest
}

// maxHeldListings bounds the listings held back: past it, those held are
// kept (about 300 bytes each), and a full record after them with the same
// title counts as their duplicate. A variable for tests.
var maxHeldListings = 50_000

func startPipeline(s sink) *pipeline {
	p := &pipeline{in: make(chan []rawPaper, 1), done: make(chan struct{}), sink: s, seen: make(fingerprints, 1024)}
	go p.run()
	return p
}

func (p *pipeline) run() {
	defer close(p.done)
	for chunk := range p.in {
		if p.err != nil {
			continue // drain, so the parser never blocks
		}
		papers, keys := cleanAll(chunk)
		if p.err = p.take(papers, keys); p.err != nil {
			p.failed.Store(true)
		}
	}
	if p.err == nil {
		p.err = p.keepListings()
	}
}

// take checks, de-duplicates and passes on the cleaned papers of a chunk:
// the first copy in file order wins, except that a listing (a title and no
// abstract) waits for the end of the load.
func (p *pipeline) take(papers []Paper, keys []idDigest) error {
	for i := range papers {
		pp := &papers[i]
		if !hasWord(pp.Abstract) {
			if !hasWord(pp.Title) {
				p.skip(pp.Source, "neither title nor abstract has words once markup is removed; skipped")
				continue
			}
			// None, or markup alone ("$$"): a listing, found by its title.
			pp.Abstract = ""
			p.listings = append(p.listings, listing{*pp, keys[i]})
			if len(p.listings) >= maxHeldListings {
				if err := p.keepListings(); err != nil {
					return err
				}
			}
			continue
		}
		if _, err := p.keep(pp, keys[i]); err != nil {
			return err
		}
	}
	return nil
}

// keepListings keeps the listings held back, in file order, but those
// whose paper was kept with its abstract.
func (p *pipeline) keepListings() error {
	for i := range p.listings {
		pp := &p.listings[i].paper
		kept, err := p.keep(pp, p.listings[i].key)
		if err != nil {
			return err
		}
		if kept {
			p.problem(pp.Source, "%q has no abstract; kept, found by its title", cutAtWord(pp.Title, 60))
		}
	}
	p.listings = nil
	return nil
}

// keep passes pp on unless a paper with its title or abstract was kept, and
// reports whether it did.
func (p *pipeline) keep(pp *Paper, key idDigest) (bool, error) {
	p.capLinks(pp)
	var tk dedupKey
	tk, p.buf = newDedupKey('t', pp.Title, p.buf)
	if !namesAPaper(pp.Title) {
		tk = dedupKey{} // "Summary", "Corresponding author:": no identity either
	}
	ak := dedupKey(key) // the normalised abstract's
	if !substantial(pp.Abstract) {
		ak = dedupKey{} // "Part of" is a scraping accident, not an identity
	}
	if p.seen.has(tk) || p.seen.has(ak) {
		p.duplicates++
		return false, nil
	}
	p.seen.add(tk)
	p.seen.add(ak)
	// Lists are never nil, so JSON consumers always get arrays.
	if pp.Authors == nil {
		pp.Authors = []string{}
	}
	if pp.CodeURLs == nil {
		pp.CodeURLs = []string{}
	}
	if err := p.sink.put(pp); err != nil {
		return false, err
	}
	p.kept = append(p.kept, key)
	return true, nil
}

// send hands a chunk to the pipeline; a nil pipeline drops it (a file
// re-read only to describe its error).
func (p *pipeline) send(chunk []rawPaper) {
	if p != nil && len(chunk) > 0 && !p.failed.Load() {
		p.in <- chunk
	}
}

// loaded is what a load found besides the papers, which went to its sink.
type loaded struct {
	skipped    int
	problems   []string
	duplicates int
	ids        []paperID // of the kept papers, in order
}

// loadInto reads the named files through one pipeline into s.
func loadInto(src fileSource, names []string, lim Limits, s sink) (*loaded, error) {
	l := &loader{src: src, lim: lim, out: startPipeline(s)}
	var err error
	for _, name := range names {
		if err = l.loadFile(name); err != nil {
			break
		}
	}
	l.flush()
	close(l.out.in)
	<-l.out.done
	if err != nil {
		return nil, err
	}
	return l.finish(names)
}

// finish gathers the counts and problems of a finished load and assigns
// the kept papers' IDs.
func (l *loader) finish(names []string) (*loaded, error) {
	p := l.out
	if p.err != nil {
		return nil, p.err
	}
	res := &loaded{skipped: l.skipped + p.skipped, problems: l.problems, duplicates: p.duplicates}
	omitted := l.omitted + p.omitted
	for i, pr := range p.problems {
		if len(res.problems) >= maxProblems {
			omitted += len(p.problems) - i
			break
		}
		res.problems = append(res.problems, pr)
	}
	if omitted > 0 {
		res.problems = append(res.problems, fmt.Sprintf("... and %d more problems not listed", omitted))
	}
	if len(p.kept) == 0 {
		return nil, invalidf(opLoad, "no papers found in %s", strings.Join(names, ", "))
	}
	res.ids = idsFor(p.kept)
	return res, nil
}

// memSink keeps the papers in memory, for Corpus.
type memSink struct{ papers []Paper }

func (m *memSink) put(p *Paper) error {
	m.papers = append(m.papers, *p)
	return nil
}
