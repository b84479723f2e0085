package search

import (
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
)

// vocab holds the corpus's term statistics, read from the index dictionaries
// once per index: document frequencies for idf weights and typo correction,
// and author-name tokens. Read-only after loading.
type vocab struct {
	n       int            // papers
	df      map[string]int // stem -> papers with it in title or abstract (max of the two fields)
	names   map[string]int // author-name token -> papers
	byFirst map[rune][]string
}

func loadVocab(bi bleve.Index, papers int) (*vocab, error) {
	v := &vocab{n: papers, df: map[string]int{}, names: map[string]int{}, byFirst: map[rune][]string{}}
	read := func(field string, into map[string]int) error {
		d, err := bi.FieldDict(field)
		if err != nil {
			return fmt.Errorf("read %s dictionary: %w", field, err)
		}
		defer d.Close()
		for {
			e, err := d.Next()
			if err != nil {
				return fmt.Errorf("read %s dictionary: %w", field, err)
			}
			if e == nil {
				return nil
			}
			if c := int(e.Count); c > into[e.Term] {
				into[e.Term] = c
			}
		}
	}
	if err := read(fieldBody, v.df); err != nil {
		return nil, err
	}
	if err := read(fieldAuthors, v.names); err != nil {
		return nil, err
	}
	for t := range v.df {
		r, _ := utf8.DecodeRuneInString(t)
		v.byFirst[r] = append(v.byFirst[r], t)
	}
	return v, nil
}

// idf is the BM25 inverse document frequency of a stem; a stem the corpus
// lacks gets the highest value.
func (v *vocab) idf(stem string) float64 {
	df := float64(v.df[stem])
	n := float64(max(v.n, 1))
	return math.Log(1 + (n-df+0.5)/(df+0.5))
}

// has reports whether some paper's title or abstract contains stem.
func (v *vocab) has(stem string) bool { return v.df[stem] > 0 }
