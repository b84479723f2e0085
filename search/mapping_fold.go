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

// filterStems gives a few words their own stems where Porter's would merge
// words that mean different things in papers: "generalization" stems to
// "gener" as "generation" does, "transformers" to "transform", "tokenizer"
// to "token". A word it stems is marked so that the Porter filter after it
// keeps the stem.
const filterStems = "paper_stems"

// ownStems maps such words to their stems: each family keeps its
// inflections together ("generalize" finds "generalization").
var ownStems = func() map[string]string {
	m := map[string]string{}
	add := func(stem string, words ...string) {
		for _, w := range words {
			m[w] = stem
		}
	}
	add("generaliz", "generalize", "generalizes", "generalized", "generalizing", "generalization",
		"generalizations", "generalise", "generalises", "generalised", "generalising", "generalisation",
		"generalisations", "generalizable", "generalisable", "generalizability", "generalisability")
	add("transformer", "transformer", "transformers")
	add("tokeniz", "tokenize", "tokenizes", "tokenized", "tokenizing", "tokenizer", "tokenizers",
		"tokenization", "tokenise", "tokenised", "tokeniser", "tokenisers", "tokenisation")
	return m
}()

type stemsFilter struct{}

func (stemsFilter) Filter(ts analysis.TokenStream) analysis.TokenStream {
	for _, t := range ts {
		if stem, ok := ownStems[string(t.Term)]; ok {
			t.Term, t.KeyWord = []byte(stem), true
		}
	}
	return ts
}

func init() {
	err := registry.RegisterTokenFilter(filterStems, func(map[string]any, *registry.Cache) (analysis.TokenFilter, error) {
		return stemsFilter{}, nil
	})
	if err != nil {
		panic(err)
	}
}
