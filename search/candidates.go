package search

import (
	"context"
	"slices"
	"strings"
	"unicode"

	"github.com/blevesearch/bleve/v2"
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/paperbot/paperbot/search/corpus"
	"github.com/paperbot/paperbot/search/query"
)

// found is the candidates stage's output: the papers bleve found for the
// query's words, in bleve's order, before any re-ranking.
type found struct {
	// groups are the query's words as searched: split into single words
	// when loose, or into shorter long forms when no paper writes a long
	// one whole.
	groups []group
	cands  []candidate // bleve's best, up to max(need, Tuning.Rerank) of them
	// apart are papers with a long form's words apart, to rank below
	// cands when fewer than a page have it whole.
	apart []candidate
	total int // how many papers bleve matched
	// loose: no paper has the words together, and cands are the closest
	// papers with them apart, to be refused.
	loose bool
	// unheldLink is a pasted link no paper has, left out of groups, to be
	// named among the missing words.
	unheldLink string
}

// candidates is the first stage: it retrieves from bleve at least need
// papers for q (text as typed). A query that pastes one paper's own link
// is answered here, with that paper, as linked; a query with nothing to
// search for is an *Error of kind Invalid.
func (s *state) candidates(ctx context.Context, text string, q *query.Parsed, need int) (found, *Results, error) {
	groups := s.textGroups(q)
	linked, unheld, err := s.pastedLink(ctx, q, groups)
	if err != nil || linked != nil {
		return found{}, linked, err
	}
	groups, unheldLink, err := s.withoutUnheldLink(ctx, groups, unheld)
	if err != nil {
		return found{}, nil, err
	}
	if !q.FilterOnly() && len(groups) == 0 && len(q.Fields) == 0 && len(q.Years) == 0 && q.HasCode == nil {
		if !strings.ContainsFunc(text, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
			return found{}, nil, invalidf(opParse, "%q has no words to search for: type what the paper is about", query.Excerpt(text))
		}
		return found{}, nil, invalidf(opParse, "%q has only common words (like \"the\" or \"which paper\"): add what the paper is about", query.Excerpt(text))
	}
	bquery, err := s.bleveQuery(q, groups)
	if err != nil {
		return found{}, nil, err
	}
	cands, total, err := s.run(ctx, bquery, max(need, s.tune.Rerank))
	if err != nil {
		return found{}, nil, err
	}
	if s.longFormUnwritten(cands, groups) {
		// No paper writes a long form of three or more words whole
		// ("knowledge base question answering", KBQA): search the
		// shorter long forms it is made of, as "question answering over
		// a knowledge base" is searched, rather than rank papers that
		// merely have its words. Only when it splits into long forms: a
		// lone word of it ("graph" of "graph neural networks") would
		// find papers of any field.
		if apartGroups := s.textGroupsOf(q, true); singleWords(apartGroups) == singleWords(groups) {
			if aq, err := s.bleveQuery(q, apartGroups); err == nil {
				if ac, at, err := s.run(ctx, aq, max(need, s.tune.Rerank)); err == nil && len(ac) > 0 {
					cands, total, groups = ac, at, apartGroups
				}
			}
		}
	}
	if len(cands) == 0 && len(s.retrieved(groups)) < len(groups) {
		// No paper has the query's rarer words ("model RLHF" over papers
		// that never mention RLHF): the papers with its commonest ones are
		// the closest, not none.
		if aq, err := s.bleveQueryOf(q, groups); err == nil {
			if ac, at, err := s.run(ctx, aq, max(need, s.tune.Rerank)); err == nil {
				cands, total = ac, at
			}
		}
	}
	loose := false
	var apart []candidate
	if len(cands) < need {
		lc, lt, lg := s.runLoose(ctx, q, groups, len(cands) == 0, max(need, s.tune.Rerank))
		if len(cands) == 0 && len(lc) > 0 {
			cands, total, groups, loose = lc, lt, lg, true
		} else {
			apart = notAmong(lc, cands)
		}
	}
	return found{groups: groups, cands: cands, apart: apart, total: total, loose: loose, unheldLink: unheldLink}, nil, nil
}

// candidate is a paper bleve found, with its re-ranking data.
type candidate struct {
	doc   *record
	score float64 // bleve's
	rank  float64 // final ranking score
	m     *docMatch
	// cos is the paper's cosine with the query's meaning (hasCos: it has
	// a vector); byMeaning marks a paper found by meaning, not bleve.
	cos               float64
	hasCos, byMeaning bool
}

// pastedLink answers a query that names a paper by its own link, in any
// form ("arxiv.org/pdf/2309.17453v2", "<https://openreview.net/forum?id=…|this
// one>"), with that paper: the link says which paper is meant, and the
// words around it ("this one", "arXiv") are what the asker calls it. res
// is nil when the query has no such link or more than one, or no paper has
// it as its own: unheld is then that link's group (else -1), which may be
// a code or project link an abstract gives.
func (s *state) pastedLink(ctx context.Context, q *query.Parsed, groups []group) (res *Results, unheld int, err error) {
	if q.Narrowed() {
		return nil, -1, nil // the paper may not pass the filters
	}
	key, at := "", -1
	for gi, g := range groups {
		if k, ok := corpus.PaperLinkKey(g.surface); ok {
			if key != "" {
				return nil, -1, nil
			}
			key, at = k, gi
		}
	}
	if key == "" {
		return nil, -1, nil
	}
	r, ok, err := s.recordAtLink(ctx, key)
	if err != nil {
		return nil, -1, err
	}
	if !ok {
		return nil, at, nil
	}
	res = &Results{Total: 1, Confidence: 1, Results: []Result{s.result(candidate{doc: r, rank: 1}, 1, newMatcher(nil), false)}}
	return res, -1, nil
}

// withoutUnheldLink leaves out of groups the link at unheld (pastedLink's:
// no paper has it as its own, -1 for none) and returns it, to be named
// among the missing words: searched whole it matches no paper, and
// "anything on <arxiv link|QLoRA>?" was refused; the words beside it say
// what the asker wants. Alone, it is an error that says so. A code or
// project link that an abstract gives stays, to be searched for.
func (s *state) withoutUnheldLink(ctx context.Context, groups []group, unheld int) ([]group, string, error) {
	if unheld < 0 || s.linkWritten(ctx, groups[unheld]) {
		return groups, "", nil
	}
	link := groups[unheld].surface
	if len(groups) == 1 {
		return nil, "", invalidf("search", "no paper here has the link %q: it may not be in this corpus; search for its title or what it is about", query.ExcerptN(link, 80))
	}
	return slices.Delete(slices.Clone(groups), unheld, unheld+1), link, nil
}

// linkWritten reports whether some paper's text gives the link of group g
// (a code or project page in its abstract); true when the search fails,
// so that the link is kept.
func (s *state) linkWritten(ctx context.Context, g group) bool {
	cands, _, err := s.run(ctx, groupQuery(g, s.altScale(g)), 1)
	return err != nil || len(cands) > 0
}

// singleWords counts the groups that are single words, not long forms.
func singleWords(groups []group) int {
	n := 0
	for _, g := range groups {
		if g.longForm == 0 {
			n++
		}
	}
	return n
}

// longFormUnwritten reports whether groups has a long form of three or more
// words that none of the best candidates writes whole (bleve finds its
// words anywhere; the matcher wants them together).
func (s *state) longFormUnwritten(cands []candidate, groups []group) bool {
	var long []int
	for gi, g := range groups {
		if g.longForm >= 3 {
			long = append(long, gi)
		}
	}
	if len(long) == 0 {
		return false
	}
	mt := newMatcher(groups)
	for _, c := range cands[:min(len(cands), max(s.tune.Rerank, 1))] {
		m := s.match(c.doc, mt)
		for _, gi := range long {
			if m.credit[gi] >= 1 {
				return false
			}
		}
	}
	return true
}

// runLoose retrieves the best n papers for groups split into their words
// (looseGroups), and returns them with the split groups; nothing when no
// group splits or the search fails. Fewer papers than a page have a long
// form whole: the papers with its words apart follow them. When none has
// it, or a quoted phrase ("bayesian optimization" over papers without
// Bayesian optimisation), those are the closest papers, shown under
// "nothing relevant".
func (s *state) runLoose(ctx context.Context, q *query.Parsed, groups []group, quoted bool, n int) ([]candidate, int, []group) {
	lg := s.looseGroups(groups, quoted)
	if lg == nil {
		return nil, 0, nil
	}
	lq, err := s.bleveQuery(q, lg)
	if err != nil {
		return nil, 0, nil
	}
	cands, total, err := s.run(ctx, lq, n)
	if err != nil {
		return nil, 0, nil
	}
	return cands, total, lg
}

// run executes a bleve query for the best n hits.
func (s *state) run(ctx context.Context, q bq.Query, n int) ([]candidate, int, error) {
	req := bleve.NewSearchRequestOptions(q, n, 0, false)
	req.Fields = []string{fieldRecord}
	req.PreSearchData = s.stats.preSearch
	sr, err := s.bi.SearchInContext(ctx, req)
	if err != nil && req.PreSearchData != nil && ctx.Err() == nil && strings.Contains(err.Error(), "field stat for bm25") {
		// A query shape naming a field the stats lack: ranked as bleve
		// would on its own rather than failed.
		req.PreSearchData = nil
		sr, err = s.bi.SearchInContext(ctx, req)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, 0, &Error{Op: "search", Kind: Internal, Msg: "the search was cancelled", Err: ctx.Err()}
		}
		return nil, 0, &Error{Op: "search", Kind: Internal, Err: err}
	}
	cands := make([]candidate, 0, len(sr.Hits))
	for _, h := range sr.Hits {
		r, err := s.hitRecord(h.ID, h.Fields)
		if err != nil {
			return nil, 0, &Error{Op: "search", Kind: Internal, Err: err}
		}
		cands = append(cands, candidate{doc: r, score: h.Score, rank: h.Score})
	}
	return cands, int(sr.Total), nil
}

// notAmong returns the candidates of cs that are not in have.
func notAmong(cs, have []candidate) []candidate {
	ids := make(map[string]bool, len(have))
	for _, c := range have {
		ids[c.doc.ID] = true
	}
	var out []candidate
	for _, c := range cs {
		if !ids[c.doc.ID] {
			out = append(out, c)
		}
	}
	return out
}
