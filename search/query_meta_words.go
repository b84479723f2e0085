package search

import (
	"context"
	"strconv"

	"github.com/blevesearch/bleve/v2"
	bq "github.com/blevesearch/bleve/v2/search/query"
	"github.com/paperbot/paperbot/search/query"
)

// People name a year or a conference in free text ("mamba 2024", "graph
// transformers ICLR", "any papers on X from 2024?"). Such a word also
// matches a paper's year or venue, so the papers of that year or venue
// rank first and the query is not refused because no abstract says "2024".

// venueWord returns the venue token a typed word names when it is the
// first word of one of the corpus's venues ("ICLR" of "ICLR 2024 poster"),
// "" otherwise.
func (s *state) venueWord(w string) string {
	ts := s.an.name.Analyze([]byte(w))
	if len(ts) != 1 {
		return ""
	}
	if tok := string(ts[0].Term); s.venueFirsts()[tok] {
		return tok
	}
	return ""
}

// venueFirsts is the set of the venues' first words, analysed as names.
func (s *state) venueFirsts() map[string]bool {
	const key = "venue firsts"
	if v, ok := s.memo.Load(key); ok {
		return v.(map[string]bool)
	}
	firsts := map[string]bool{}
	for _, v := range s.venues {
		if ts := s.an.name.Analyze([]byte(v)); len(ts) > 0 {
			firsts[string(ts[0].Term)] = true
		}
	}
	s.memo.Store(key, firsts)
	return firsts
}

// withMeta gives g its year or venue reading, when its word names one;
// span is the span of years the words around it make, zero for none.
func (s *state) withMeta(g group, span query.YearClause) group {
	if y := query.YearWord(g.surface); y != 0 {
		c := query.YearClause{Min: y, Max: y}
		if span != (query.YearClause{}) {
			c = span
		}
		// A span every paper is in says nothing: "since 1979" of a corpus
		// from 2018 on would otherwise match every paper.
		if n := s.yearCount(c); n > 0 && (span == (query.YearClause{}) || n < s.vocab.n) {
			g.years = c
		}
	} else if v := s.venueWord(g.surface); v != "" {
		g.venue = v
	}
	return g
}

// yearCount is how many papers are from the years c; kept per index state.
func (s *state) yearCount(c query.YearClause) int {
	key := "years " + strconv.Itoa(c.Min) + "-" + strconv.Itoa(c.Max)
	if v, ok := s.memo.Load(key); ok {
		return v.(int)
	}
	req := bleve.NewSearchRequestOptions(yearQuery(c), 0, 0, false)
	n := 0
	if sr, err := s.bi.SearchInContext(context.Background(), req); err == nil {
		n = int(sr.Total)
	}
	s.memo.Store(key, n)
	return n
}

// metaIDF is the idf of g's year or venue reading, 0 when it has none.
func (s *state) metaIDF(g group) float64 {
	switch {
	case g.years != query.YearClause{}:
		return bm25IDF(s.yearCount(g.years), s.vocab.n)
	case g.venue != "":
		return bm25IDF(s.vocab.count(fieldVenue, g.venue), s.vocab.n)
	}
	return 0
}

// metaMatch reports whether p is of g's year or venue.
func (s *state) metaMatch(p *Paper, g group) bool {
	switch {
	case g.years != query.YearClause{}:
		return p.Year != 0 && (g.years.Min == 0 || p.Year >= g.years.Min) && (g.years.Max == 0 || p.Year <= g.years.Max)
	case g.venue != "":
		for _, t := range s.an.name.Analyze([]byte(p.Venue)) {
			if string(t.Term) == g.venue {
				return true
			}
		}
	}
	return false
}

// isMeta reports whether g names a year or a venue.
func (g group) isMeta() bool { return g.years != query.YearClause{} || g.venue != "" }

// metaQuery matches g's year or venue in the papers' metadata; nil when g
// names neither.
func metaQuery(g group, boost float64) bq.Query {
	switch {
	case g.years != query.YearClause{}:
		q := yearQuery(g.years)
		q.(*bq.NumericRangeQuery).SetBoost(boost)
		return q
	case g.venue != "":
		return termsQuery(fieldVenue, []string{g.venue}, boost)
	}
	return nil
}
