package query

import (
	"sync"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
)

// StopWords are the text analyzer's stop words (bleve's English list).
var StopWords = sync.OnceValue(func() analysis.TokenMap {
	tm := analysis.NewTokenMap()
	if err := tm.LoadBytes(en.EnglishStopWords); err != nil {
		panic(err) // bleve's own list: cannot fail to parse
	}
	return tm
})
