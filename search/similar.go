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
	noSimilarCoverage = 0.12
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
	p, err := st.paper("similar", id)
	if err != nil {
		return nil, err
	}
	return st.similar(ctx, "similar:"+p.ID, titleText(&p.Paper)+". "+p.Abstract, p.ID, limit)
}

// PastedText reports whether text is longer than any query may be (more
// words or characters than Search takes): pasted text, an abstract or a
// paragraph, whose papers are those like it (SimilarText), not a search.
func PastedText(text string) bool {
	return len(strings.Fields(text)) > maxQueryClauses || utf8.RuneCountInString(text) > maxQueryLen
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
	groups, missing := s.distinctive(text, exclude != "")
	res := &Results{Query: label, Results: []Result{}}
	if len(groups) == 0 {
		res.NoMatch = true
		return res, nil
	}
	qs := make([]bq.Query, 0, len(groups))
	for _, g := range groups {
		qs = append(qs, termsQuery(fieldBody, g.alts[0].terms, g.weight))
	}
	b := bq.NewBooleanQuery(nil, nil, nil)
	b.AddMust(bq.NewDisjunctionQuery(qs))
	if exclude != "" {
		b.AddMustNot(bq.NewDocIDQuery([]string{exclude}))
	}
	// bleve finds candidates; they are ranked by the share of the text's
	// distinctive weight they contain, which does not favour a paper that
	// repeats one of the words in its title.
	cands, total, err := s.run(ctx, b, max(limit, rerankDepth))
	if err != nil {
		return nil, err
	}
	res.Total = total
	mt := newMatcher(groups)
	for i := range cands {
		m := s.match(cands[i].doc, mt)
		cands[i].m = &m
		cands[i].rank = similarity(groups, missing, m.credit)
	}
	slices.SortStableFunc(cands, func(a, b candidate) int {
		if c := cmpFloat(b.rank, a.rank); c != 0 {
			return c
		}
		return strings.Compare(a.doc.ID, b.doc.ID)
	})
	res.NoMatch = len(cands) == 0 || cands[0].rank < noSimilarCoverage
	for _, c := range cands[:min(len(cands), limit)] {
		res.Results = append(res.Results, s.result(c, cands[0].rank, mt, false))
	}
	return res, nil
}

// similarity is the share of a text's distinctive weight a paper matches,
// counting the weight of the text's terms no other paper has (missing).
func similarity(groups []group, missing float64, credit []float64) float64 {
	var got, total float64
	for gi, g := range groups {
		total += g.weight
		got += g.weight * credit[gi]
	}
	if total+missing == 0 {
		return 0
	}
	return got / (total + missing)
}

// distinctive returns the text's most distinctive corpus terms as groups,
// weighted by saturated term frequency times idf, and the weight of its most
// distinctive terms the corpus lacks (missing): a text about bread shares
// few words with ML papers, and its own words say so. With fromCorpus, the
// text is a corpus paper: terms only it contains are skipped, not missing.
func (s *state) distinctive(text string, fromCorpus bool) ([]group, float64) {
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
	var absent []float64
	for _, st := range order {
		df := s.vocab.df(st)
		if df*2 > s.vocab.n || utf8.RuneCountInString(st) < 3 || isNumber(st) || s.filler[st] {
			continue
		}
		tf := float64(terms[st].tf)
		if df < minDF {
			absent = append(absent, tf*2.2/(tf+1.2)*s.vocab.idf(""))
			continue
		}
		w := tf * 2.2 / (tf + 1.2) * s.vocab.idf(st)
		gs = append(gs, group{surface: terms[st].surface, alts: []alt{{kind: altExact, terms: []string{st}}}, weight: w})
	}
	slices.SortStableFunc(gs, func(a, b group) int { return cmpFloat(b.weight, a.weight) })
	if len(gs) > similarTerms {
		gs = gs[:similarTerms]
	}
	if fromCorpus {
		// A paper's own words (its method's name) are not missing from the
		// corpus: they are what makes it a different paper.
		return gs, 0
	}
	slices.SortFunc(absent, func(a, b float64) int { return cmpFloat(b, a) })
	missing := 0.0
	for _, w := range absent[:min(len(absent), similarTerms)] {
		missing += w
	}
	return gs, missing
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
