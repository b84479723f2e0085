package eval

import (
	"context"
	"fmt"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	index "github.com/blevesearch/bleve_index_api"
)

// baseline is the plain BM25 index every figure is compared with: bleve's
// scorch, title and text in one field, the stock "en" analyzer, the query
// text as an OR match query. Nothing of paperbot's is in it.
type baseline struct{ bi bleve.Index }

func newBaseline(docs []Doc) (*baseline, error) {
	im := mapping.NewIndexMapping()
	im.ScoringModel = index.BM25Scoring
	im.DefaultAnalyzer = en.AnalyzerName
	f := mapping.NewTextFieldMapping()
	f.Analyzer = en.AnalyzerName
	f.Store, f.IncludeInAll, f.IncludeTermVectors, f.DocValues = false, false, false, false
	dm := mapping.NewDocumentStaticMapping()
	dm.AddFieldMappingsAt("text", f)
	im.DefaultMapping = dm
	bi, err := bleve.NewUsing("", im, scorch.Name, scorch.Name, nil)
	if err != nil {
		return nil, err
	}
	const batchSize = 1000
	for start := 0; start < len(docs); start += batchSize {
		b := bi.NewBatch()
		for _, d := range docs[start:min(start+batchSize, len(docs))] {
			if err := b.Index(d.ID, map[string]any{"text": d.Title + " " + d.Text}); err != nil {
				_ = bi.Close()
				return nil, err
			}
		}
		if err := bi.Batch(b); err != nil {
			_ = bi.Close()
			return nil, err
		}
	}
	return &baseline{bi: bi}, nil
}

// search returns the IDs of the best n documents for text.
func (b *baseline) search(ctx context.Context, text string, n int) ([]string, error) {
	q := bleve.NewMatchQuery(text)
	q.SetField("text")
	sr, err := b.bi.SearchInContext(ctx, bleve.NewSearchRequestOptions(q, n, 0, false))
	if err != nil {
		return nil, fmt.Errorf("baseline search %q: %w", text, err)
	}
	ids := make([]string, len(sr.Hits))
	for i, h := range sr.Hits {
		ids[i] = h.ID
	}
	return ids, nil
}

func (b *baseline) close() error { return b.bi.Close() }
