package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/paperbot/paperbot/search"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"
)

// The plain-bleve column is the baseline paperbot is held against: what a
// few lines of bleve do with the same papers and queries. It is the one
// place outside search that imports bleve, because it measures bleve itself.

// plainMapping indexes title and abstract with bleve's English analyzer,
// stored with term vectors so results come back highlighted; BM25 scoring.
func plainMapping() mapping.IndexMapping {
	im := bleve.NewIndexMapping()
	im.ScoringModel = index.BM25Scoring
	dm := bleve.NewDocumentStaticMapping()
	text := bleve.NewTextFieldMapping()
	text.Analyzer = en.AnalyzerName
	text.Store = true
	text.IncludeTermVectors = true
	dm.AddFieldMappingsAt("title", text)
	dm.AddFieldMappingsAt("abstract", text)
	im.DefaultMapping = dm
	return im
}

type plainDoc struct {
	Title    string `json:"title"`
	Abstract string `json:"abstract"`
}

// plainBuild indexes the JSON Lines corpus into a new scorch index at dir,
// in batches of 1,000, and returns the papers indexed.
func plainBuild(corpus, dir string) (int, error) {
	bi, err := bleve.NewUsing(dir, plainMapping(), scorch.Name, scorch.Name, nil)
	if err != nil {
		return 0, err
	}
	f, err := os.Open(corpus)
	if err != nil {
		_ = bi.Close()
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	b := bi.NewBatch()
	n := 0
	for sc.Scan() {
		var p synthPaper
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			_ = bi.Close()
			return n, err
		}
		if err := b.Index(fmt.Sprint(n), plainDoc{p.Title, p.Abstract}); err != nil {
			_ = bi.Close()
			return n, err
		}
		n++
		if b.Size() == 1000 {
			if err := bi.Batch(b); err != nil {
				_ = bi.Close()
				return n, err
			}
			b.Reset()
		}
	}
	if err := sc.Err(); err != nil {
		_ = bi.Close()
		return n, err
	}
	if b.Size() > 0 {
		if err := bi.Batch(b); err != nil {
			_ = bi.Close()
			return n, err
		}
	}
	return n, bi.Close()
}

// plainEngine serves queries from a plain bleve index.
type plainEngine struct{ bi bleve.Index }

func openPlain(dir string) (*plainEngine, error) {
	bi, err := bleve.Open(dir)
	if err != nil {
		return nil, err
	}
	return &plainEngine{bi}, nil
}

// search asks for 10 hits of a match query on title (boosted) or abstract,
// with the title loaded and the abstract highlighted.
func (e *plainEngine) search(ctx context.Context, text string) (int, error) {
	title := bleve.NewMatchQuery(text)
	title.SetField("title")
	title.SetBoost(2)
	abs := bleve.NewMatchQuery(text)
	abs.SetField("abstract")
	req := bleve.NewSearchRequestOptions(query.NewDisjunctionQuery([]query.Query{title, abs}), 10, 0, false)
	req.Fields = []string{"title"}
	req.Highlight = bleve.NewHighlight()
	req.Highlight.AddField("abstract")
	res, err := e.bi.SearchInContext(ctx, req)
	if err != nil {
		return 0, err
	}
	return len(res.Hits), nil
}

func (e *plainEngine) papers() int {
	n, _ := e.bi.DocCount()
	return int(n)
}

func (e *plainEngine) segments() int { return search.SegmentCount(e.bi) }

func (e *plainEngine) close() error { return e.bi.Close() }
