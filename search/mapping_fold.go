package search

import (
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/char/asciifolding"
	"github.com/blevesearch/bleve/v2/registry"
)

// filterFold folds a text token's letters to ASCII ("schrödinger" is
// "schrodinger"), so Schrodinger finds Schrödinger and Sjogren Sjögren. It
// is a token filter, not bleve's ASCII-folding character filter, because a
// character filter would move the tokens' offsets off the original text,
// which snippets and answers point into.
const filterFold = "paper_fold"

type foldFilter struct {
	f *asciifolding.AsciiFoldingFilter
}

func (ff foldFilter) Filter(ts analysis.TokenStream) analysis.TokenStream {
	for _, t := range ts {
		for _, c := range t.Term {
			if c >= 0x80 {
				t.Term = ff.f.Filter(t.Term)
				break
			}
		}
	}
	return ts
}

func init() {
	err := registry.RegisterTokenFilter(filterFold, func(map[string]any, *registry.Cache) (analysis.TokenFilter, error) {
		return foldFilter{asciifolding.New()}, nil
	})
	if err != nil {
		panic(err) // a name clash with bleve's own filters: a programming error
	}
}
