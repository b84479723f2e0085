package search

import (
	"context"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	bq "github.com/blevesearch/bleve/v2/search/query"
)

const (
	// similarTerms is how many distinctive terms of a text make its query.
	similarTerms = 25
	// maxSimilarText bounds pasted text, in characters.
	maxSimilarText = 20000
	// noSimilarCoverage: below this share of the text's term weight, the
	// closest paper is not really similar.
	noSimilarCoverage = 0.2
)

// Similar returns the papers most like the paper id, without it. An unknown
// id is an error of kind NotFound.
func (ix *Index) Similar(ctx context.Context, id string, limit int) (*Results, error) {
	limit, _, err := page(Request{Limit: limit})
	if err != nil {
		return nil, err
	}
	st, release, err := ix.live()
	if err != nil {
		return nil, err
	}
	defer release()
	i, ok := st.lookup(id)
	if !ok {
		return nil, notFound(id)
	}
	p := &st.papers[i]
	return st.similar(ctx, "similar:"+p.ID, titleText(p)+". "+p.Abstract, p.ID, limit)
}

// SimilarText returns the papers most like text, e.g. a pasted abstract.
// Empty or oversized text is an error of kind Invalid.
func (ix *Index) SimilarText(ctx context.Context, text string, limit int) (*Results, error) {
	limit, _, err := page(Request{Limit: limit})
	if err != nil {
		return nil, err
	}
	text = strings.TrimSpace(strings.ToValidUTF8(text, " "))
	if text == "" {
		return nil, invalidf("similar", "paste some text, e.g. an abstract, to find papers like it")
	}
	if n := utf8.RuneCountInString(text); n > maxSimilarText {
		return nil, invalidf("similar", "the text is too long (%d characters, at most %d): paste just the abstract", n, maxSimilarText)
	}
	st, release, err := ix.live()
	if err != nil {
		return nil, err
	}
	defer release()
	return st.similar(ctx, excerpt(text), text, "", limit)
}

// similar runs a weighted OR of the text's most distinctive terms (BM25
// term weight times idf), leaving out the paper exclude.
func (s *state) similar(ctx context.Context, label, text, exclude string, limit int) (*Results, error) {
	groups := s.distinctive(text, exclude != "")
	res := &Results{Query: label, Results: []Result{}}
	if len(groups) == 0 {
		res.NoMatch = true
		return res, nil
	}
	qs := make([]bq.Query, 0, 2*len(groups))
	for _, g := range groups {
		qs = append(qs, termsQuery(fieldTitle, g.alts[0].terms, boostTitle*g.weight), termsQuery(fieldAbstract, g.alts[0].terms, boostAbstract*g.weight))
	}
	b := bq.NewBooleanQuery(nil, nil, nil)
	b.AddMust(bq.NewDisjunctionQuery(qs))
	if exclude != "" {
		b.AddMustNot(bq.NewDocIDQuery([]string{exclude}))
	}
	cands, total, err := s.run(ctx, b, limit)
	if err != nil {
		return nil, err
	}
	res.Total = total
	if top := 0.0; len(cands) > 0 {
		top = cands[0].score
		for i := range cands {
			m := s.match(cands[i].doc, groups)
			cands[i].m = &m
			cands[i].rank = cands[i].score / top
		}
	}
	res.NoMatch = len(cands) == 0 || cands[0].m.coverage < noSimilarCoverage
	for _, c := range cands {
		res.Results = append(res.Results, s.result(c, groups, false))
	}
	return res, nil
}

// distinctive returns the text's most distinctive corpus terms as groups,
// weighted by saturated term frequency times idf. With fromCorpus, the text
// is a corpus paper, so terms only it contains are useless and skipped.
func (s *state) distinctive(text string, fromCorpus bool) []group {
	type term struct {
		surface string
		tf      int
	}
	terms := map[string]*term{}
	var order []string
	for _, t := range s.an.text.Analyze([]byte(text)) {
		st := string(t.Term)
		if x, ok := terms[st]; ok {
			x.tf++
			continue
		}
		terms[st] = &term{surface: text[t.Start:t.End], tf: 1}
		order = append(order, st)
	}
	minDF := 1
	if fromCorpus {
		minDF = 2
	}
	var gs []group
	for _, st := range order {
		df := s.vocab.df[st]
		if df < minDF || df*2 > s.vocab.n || utf8.RuneCountInString(st) < 3 || isNumber(st) {
			continue
		}
		tf := float64(terms[st].tf)
		w := tf * 2.2 / (tf + 1.2) * s.vocab.idf(st)
		gs = append(gs, group{surface: terms[st].surface, alts: []alt{{kind: altExact, terms: []string{st}}}, weight: w})
	}
	slices.SortStableFunc(gs, func(a, b group) int { return cmpFloat(b.weight, a.weight) })
	if len(gs) > similarTerms {
		gs = gs[:similarTerms]
	}
	return gs
}

func isNumber(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' && r != ',' }) < 0
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b || (math.IsNaN(a) && !math.IsNaN(b)):
		return -1
	case a > b:
		return 1
	}
	return 0
}
