package search

import (
	"context"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	bq "github.com/blevesearch/bleve/v2/search/query"
	"github.com/paperbot/paperbot/search/query"
)

const (
	// similarTerms is how many distinctive terms of a text make its query:
	// about all of an abstract's (eval --similar, below).
	similarTerms = 100
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
	return st.similar(ctx, "similar:"+p.ID, similarText(&p.Paper), p.ID, limit)
}

// similarText is the text of p that Similar and TermVector weigh.
func similarText(p *Paper) string { return titleText(p) + ". " + p.Abstract }

// PastedText reports whether text is longer than any query may be (more
// words or characters than Search takes): pasted text, an abstract or a
// paragraph, whose papers are those like it (SimilarText), not a search.
func PastedText(text string) bool {
	return len(strings.Fields(text)) > query.MaxClauses || utf8.RuneCountInString(text) > query.MaxLen
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
	return st.similar(ctx, query.Excerpt(text), text, "", limit)
}

// similar runs an OR of the text's distinctive terms, each boosted by how
// often the text uses it, and ranks by bleve's BM25 of that query, leaving
// out the paper exclude. The share of the text's distinctive weight the
// best paper has says whether any is really similar. Chosen on the ICLR
// keywords' train split (paperbot eval --similar): of the first ten papers
// like a paper, the share with an author keyword in common was 0.154 when
// ranked by that share over 25 terms weighted by idf (plain BM25 of the
// whole text: 0.194); ranked by BM25 0.165, over 100 terms 0.183, boosted
// by term frequency alone 0.198 (bleve's BM25 weighs idf already).
func (s *state) similar(ctx context.Context, label, text, exclude string, limit int) (*Results, error) {
	groups, tfs, missing := s.distinctive(text, exclude != "")
	res := &Results{Query: label, Results: []Result{}}
	if len(groups) == 0 {
		res.NoMatch = true
		return res, nil
	}
	qs := make([]bq.Query, 0, len(groups))
	for i, g := range groups {
		qs = append(qs, termsQuery(fieldBody, g.alts[0].terms, tfs[i]))
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
	mt := newMatcher(groups)
	best := 0.0
	for i := range cands {
		m := s.match(cands[i].doc, mt)
		cands[i].m = &m
		best = max(best, similarity(groups, missing, m.credit))
	}
	res.NoMatch = len(cands) == 0 || best < noSimilarCoverage
	slices.SortStableFunc(cands, func(a, b candidate) int {
		if c := cmpFloat(b.rank, a.rank); c != 0 {
			return c
		}
		return strings.Compare(a.doc.ID, b.doc.ID) // the same order every time
	})
	for _, c := range cands {
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
func (s *state) distinctive(text string, fromCorpus bool) (groups []group, tfs []float64, missing float64) {
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
		// Two letters are a word only in capitals: "KV" of KV cache, "RL".
		short := utf8.RuneCountInString(st) < 3 && !query.TypedInCapitals(terms[st].surface)
		if df*2 > s.vocab.n || short || isNumber(st) || s.filler[st] {
			continue
		}
		n := float64(terms[st].tf)
		if df < minDF {
			absent = append(absent, n*2.2/(n+1.2)*s.vocab.idf(""))
			continue
		}
		w := n * 2.2 / (n + 1.2) * s.vocab.idf(st)
		gs = append(gs, group{surface: terms[st].surface, alts: []alt{{kind: altExact, terms: []string{st}}}, weight: w})
	}
	slices.SortStableFunc(gs, func(a, b group) int { return cmpFloat(b.weight, a.weight) })
	if len(gs) > similarTerms {
		gs = gs[:similarTerms]
	}
	tfs = make([]float64, len(gs))
	for i, g := range gs {
		tfs[i] = float64(terms[g.alts[0].terms[0]].tf)
	}
	if fromCorpus {
		// A paper's own words (its method's name) are not missing from the
		// corpus: they are what makes it a different paper.
		return gs, tfs, 0
	}
	slices.SortFunc(absent, func(a, b float64) int { return cmpFloat(b, a) })
	for _, w := range absent[:min(len(absent), similarTerms)] {
		missing += w
	}
	return gs, tfs, missing
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
