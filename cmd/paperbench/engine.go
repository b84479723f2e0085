package main

import (
	"context"
	"fmt"
	"os"

	"github.com/paperbot/paperbot/search"
)

// engine is what the benchmark measures: paperbot or plain bleve.
type engine interface {
	search(ctx context.Context, text string) (int, error)
	papers() int
	segments() int
	close() error
}

const (
	enginePaperbot = "paperbot"
	enginePlain    = "bleve"
)

// openEngine opens a built index the way a fresh process serving it would.
func openEngine(ctx context.Context, name, corpus, dir string) (engine, error) {
	switch name {
	case enginePaperbot:
		return openPaperbot(ctx, corpus, dir)
	case enginePlain:
		return openPlain(dir)
	}
	return nil, fmt.Errorf("unknown engine %q", name)
}

// build builds the index of corpus in dir and returns the papers indexed.
func build(ctx context.Context, name, corpus, dir string) (int, error) {
	switch name {
	case enginePaperbot:
		e, err := openPaperbot(ctx, corpus, dir)
		if err != nil {
			return 0, err
		}
		n := e.papers()
		return n, e.close()
	case enginePlain:
		return plainBuild(corpus, dir)
	}
	return 0, fmt.Errorf("unknown engine %q", name)
}

// paperbotEngine serves from a paperbot index.
type paperbotEngine struct{ ix *search.Index }

// openPaperbot does what `paperbot serve` does with PAPERBOT_CORPUS set to
// corpus and the index in dir: open the index there when the corpus file is
// unchanged since it was built (reading no corpus), otherwise load the
// corpus (spooled beside the index, as paperbot does with a data
// directory) and open its index (built or changed when missing or stale).
func openPaperbot(ctx context.Context, corpus, dir string) (*paperbotEngine, error) {
	patterns := []string{corpus}
	ix, err := search.OpenDir(ctx, search.Options{Dir: dir})
	if err == nil {
		ok, fresh := search.SourceUnchanged(ix.Source(), patterns, search.Limits{})
		if ok && fresh != nil {
			err = ix.SetSource(ctx, fresh)
		}
		if ok && err == nil {
			return &paperbotEngine{ix}, nil
		}
		_ = ix.Close()
	} else if search.KindOf(err) != search.NotFound {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	sp, stamp, err := search.SpoolFilesStamped(patterns, search.Limits{}, dir)
	if err != nil {
		return nil, err
	}
	defer sp.Close()
	ix, err = search.Open(ctx, sp, search.Options{Dir: dir, Source: stamp})
	if err != nil {
		return nil, err
	}
	return &paperbotEngine{ix}, nil
}

// search asks for 10 results; paperbot always computes their snippets and
// answers.
func (e *paperbotEngine) search(ctx context.Context, text string) (int, error) {
	res, err := e.ix.Search(ctx, search.Request{Text: text, Limit: 10})
	if err != nil {
		return 0, err
	}
	return len(res.Results), nil
}

func (e *paperbotEngine) papers() int   { return e.ix.Stats().Papers }
func (e *paperbotEngine) segments() int { return e.ix.Segments() }
func (e *paperbotEngine) close() error  { return e.ix.Close() }
