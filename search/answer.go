package search

import (
	"github.com/paperbot/paperbot/search/corpus"
	"github.com/paperbot/paperbot/search/query"
	"github.com/paperbot/paperbot/search/snippet"
)

// span is a byte range of a text.
type span = corpus.Span

// sentences splits text into sentences (corpus.SentenceSpans).
func sentences(text string) []span { return corpus.SentenceSpans(text) }

// results is the fourth stage: it puts the papers of r that were not
// refused (v) in the order the query asks for (the years and venues it
// names first, the newest first), cuts the page (offset, limit), and makes
// each paper a Result with its matched words, its answer sentence
// (answer_finding.go) and its snippet (the last stage, package snippet);
// the query's words no paper of the page has are named as missing
// (answer_words.go).
func (s *state) results(text string, q *query.Parsed, r ranked, v verdict, limit, offset int) *Results {
	res := &Results{Query: text, Total: r.total, Offset: offset, Results: []Result{}, Confidence: v.confidence, NoMatch: v.noMatch}
	cands, groups, mt := r.cands, r.groups, r.mt
	// A refused question's closest papers carry their answer sentences too:
	// when the refusal errs, the right paper still says what it found.
	wantAnswer := q.Question || q.Answer || len(groups) >= 2
	var topRank float64
	if len(cands) > 0 {
		topRank = cands[0].rank
	}
	if !v.noMatch {
		s.askedYearsFirst(cands, groups)
	}
	if q.Newest && !v.noMatch {
		s.newestFirst(cands)
	}
	page := cands[min(offset, len(cands)):min(len(cands), offset+limit)]
	for i := range page {
		if page[i].m == nil && len(groups) > 0 { // past the re-ranked: matched once, for result and missing
			m := s.match(page[i].doc, mt)
			page[i].m = &m
		}
	}
	for _, c := range page {
		res.Results = append(res.Results, s.result(c, topRank, mt, wantAnswer))
	}
	if !v.noMatch {
		res.Missing = s.missing(page, mt)
		if r.unheldLink != "" {
			res.Missing = append([]string{r.unheldLink}, res.Missing...)
		}
	}
	return res
}

// result assembles one ranked paper: snippet around the best sentence,
// the answer sentence when asked for, and the matched query words.
func (s *state) result(c candidate, topRank float64, mt *matcher, wantAnswer bool) Result {
	if topRank <= 0 {
		topRank = 1
	}
	groups := mt.groups
	p := c.doc.Paper
	r := Result{Paper: p, Score: c.rank / topRank}
	if c.hasCos {
		r.Meaning = c.cos
	}
	if len(groups) == 0 {
		r.Snippet = snippet.Make[hit](p.Abstract, nil, span{})
		return r
	}
	m := c.m
	if m == nil {
		mm := s.match(c.doc, mt)
		m = &mm
	}
	r.Matched = matchedWords(groups, m, titleText(&p)+" "+p.Abstract)
	if len(r.Matched) == 0 {
		r.Matched = s.wordsFound(c.doc, groups)
	}
	sents := s.doc(c.doc).sents
	focus := span{}
	if best := answerSentence(p.Abstract, sents, m.abstract, mt, s.answerWeights()); best >= 0 {
		focus = sents[best]
		if wantAnswer {
			r.Answer = p.Abstract[focus.Start:focus.End]
		}
	} else if wantAnswer {
		// The paper matched by its title alone: its finding still answers.
		if best := findingSentence(p.Abstract, sents, mt, s.answerWeights()); best >= 0 {
			r.Answer = p.Abstract[sents[best].Start:sents[best].End]
		}
	}
	r.Snippet = snippet.Make(p.Abstract, m.abstract, focus)
	return r
}
