package search

import (
	"bytes"
	"context"
	"math"

	"github.com/blevesearch/bleve/v2"
	index "github.com/blevesearch/bleve_index_api"
)

// vocab answers the corpus's term statistics from the index's own term
// dictionaries, one look-up at a time: document frequencies for idf weights
// and typo correction, and author-name tokens. Nothing is read at open, so
// the cost of a start does not grow with the vocabulary. Safe for
// concurrent use.
type vocab struct {
	n  int // papers
	bi bleve.Index
}

func newVocab(bi bleve.Index, papers int) *vocab { return &vocab{n: papers, bi: bi} }

// count returns the number of papers with term in field; 0 when the index
// cannot tell (it is closing).
func (v *vocab) count(field, term string) int {
	r, err := v.reader()
	if err != nil {
		return 0
	}
	defer r.Close()
	tfr, err := r.TermFieldReader(context.Background(), []byte(term), field, false, false, false)
	if err != nil {
		return 0
	}
	defer tfr.Close()
	return int(tfr.Count())
}

// reader opens a reader on the index's current snapshot; close it after.
func (v *vocab) reader() (index.IndexReader, error) {
	adv, err := v.bi.Advanced()
	if err != nil {
		return nil, err
	}
	return adv.Reader()
}

// df returns the number of papers with stem in their title or abstract.
func (v *vocab) df(stem string) int {
	if stem == "" {
		return 0
	}
	return v.count(fieldBody, stem)
}

// pairDF returns the number of papers whose title or abstract has stem b
// right after stem a; 0 when the index cannot tell, or when the rarer word
// is in more than maxRarer papers (too costly to count). (pairScore also
// counts a stop word between, "theory of mind"; a pair that far apart is
// too often chance, "learning via multiplicative weights", to weigh as a
// phrase.) It walks the rarer word's papers and skips the other's to them,
// so it costs what the rarer word does.
func (v *vocab) pairDF(a, b string, maxRarer int) int {
	r, err := v.reader()
	if err != nil {
		return 0
	}
	defer r.Close()
	ctx := context.Background()
	ra, err := r.TermFieldReader(ctx, []byte(a), fieldBody, false, false, true)
	if err != nil {
		return 0
	}
	defer ra.Close()
	rb, err := r.TermFieldReader(ctx, []byte(b), fieldBody, false, false, true)
	if err != nil {
		return 0
	}
	defer rb.Close()
	lead, follow := ra, rb
	if rb.Count() < ra.Count() {
		lead, follow = rb, ra
	}
	if lead.Count() > uint64(max(maxRarer, 0)) {
		return 0
	}
	var dl, df index.TermFieldDoc
	n := 0
	x, err := lead.Next(&dl)
	for err == nil && x != nil {
		y, err2 := follow.Advance(x.ID, &df)
		if err2 != nil || y == nil {
			break
		}
		if !bytes.Equal(y.ID, x.ID) {
			x, err = lead.Advance(y.ID, &dl)
			continue
		}
		va, vb := x.Vectors, y.Vectors
		if lead != ra {
			va, vb = vb, va
		}
		if adjacent(va, vb) {
			n++
		}
		x, err = lead.Next(&dl)
	}
	return n
}

// adjacent reports whether some position of b is right after one of a.
func adjacent(a, b []*index.TermFieldVector) bool {
	for _, pa := range a {
		for _, pb := range b {
			if pb.Pos == pa.Pos+1 {
				return true
			}
		}
	}
	return false
}

// name returns the number of papers with an author-name token.
func (v *vocab) name(token string) int {
	if token == "" {
		return 0
	}
	return v.count(fieldAuthors, token)
}

// eachWithPrefix calls fn with every stem starting with prefix and its
// document frequency, in dictionary order.
func (v *vocab) eachWithPrefix(prefix string, fn func(stem string, df int)) {
	d, err := v.bi.FieldDictPrefix(fieldBody, []byte(prefix))
	if err != nil {
		return
	}
	defer d.Close()
	for {
		e, err := d.Next()
		if err != nil || e == nil {
			return
		}
		fn(e.Term, int(e.Count))
	}
}

// idf is the BM25 inverse document frequency of a stem; a stem the corpus
// lacks gets the highest value.
func (v *vocab) idf(stem string) float64 { return bm25IDF(v.df(stem), v.n) }

// bm25IDF is the BM25 idf of a term in df of n papers.
func bm25IDF(df, n int) float64 {
	d, m := float64(df), float64(max(n, 1))
	return math.Log(1 + (m-d+0.5)/(d+0.5))
}

// has reports whether some paper's title or abstract contains stem.
func (v *vocab) has(stem string) bool { return v.df(stem) > 0 }
