package eval

import (
	"context"
	"fmt"
	"strings"

	"github.com/paperbot/paperbot/search"
)

// AbsentTopics measures the refusal of short in-domain topics no paper
// covers: b's short queries (at most maxWords words) are split into folds
// of foldSize; for each fold the corpus is indexed without the papers
// judged relevant to its queries and without any paper that writes one of
// them whole, and each query of the fold is asked of it. Every one should
// be refused: the corpus is of their field, but nothing left is on them.
func AbsentTopics(ctx context.Context, b *Benchmark, maxWords, foldSize int, opts Options) (*Refusal, error) {
	var qs []Query
	for _, q := range b.Queries {
		if n := len(strings.Fields(q.Text)); n >= 1 && n <= maxWords && len(q.Relevant) > 0 {
			qs = append(qs, q)
		}
	}
	docPaper := make(map[string]string, len(b.DocOf))
	for p, d := range b.DocOf {
		docPaper[d] = p
	}
	for p, ds := range b.CopiesOf {
		for _, d := range ds {
			docPaper[d] = p
		}
	}
	out := &Refusal{Name: fmt.Sprintf("%s %s topics (up to %d words) asked with their papers held out", b.Name, b.Split, maxWords), refuse: tuningOf(opts).Refuse}
	for lo := 0; lo < len(qs); lo += foldSize {
		fold := qs[lo:min(len(qs), lo+foldSize)]
		drop := map[string]bool{}
		var phrases []string
		for _, q := range fold {
			for d := range q.Relevant {
				if p, ok := docPaper[d]; ok {
					drop[p] = true
				}
			}
			phrases = append(phrases, strings.ToLower(q.Text))
		}
		held := &topicsHeldOut{c: b.Corpus, drop: drop, phrases: phrases}
		texts := make([]string, len(fold))
		for i, q := range fold {
			texts[i] = q.Text
		}
		r, err := RunRefusal(ctx, out.Name, held.papers(), texts, opts)
		if err != nil {
			return nil, err
		}
		out.Queries += r.Queries
		out.Refused += r.Refused
		out.PerQuery = append(out.PerQuery, r.PerQuery...)
	}
	if out.Queries > 0 {
		out.Share = float64(out.Refused) / float64(out.Queries)
	}
	return out, nil
}

// topicsHeldOut is a corpus less the papers of drop and those writing a phrase.
type topicsHeldOut struct {
	c       *search.Corpus
	drop    map[string]bool
	phrases []string
}

func (h *topicsHeldOut) keeps(p *search.Paper) bool {
	if h.drop[p.ID] {
		return false
	}
	text := strings.ToLower(p.Title + " " + p.Abstract)
	for _, ph := range h.phrases {
		if strings.Contains(text, ph) {
			return false
		}
	}
	return true
}

// papers lists the papers kept, as search.Papers. Which are kept is
// decided once, by position in the corpus: every pass over the papers
// would otherwise search each abstract for every phrase again.
func (h *topicsHeldOut) papers() *keptPapers {
	k := &keptPapers{c: h.c}
	_ = h.c.Each(func(p *search.Paper) error {
		keep := h.keeps(p)
		k.keep = append(k.keep, keep)
		if keep {
			k.n++
		}
		return nil
	})
	return k
}

type keptPapers struct {
	c    *search.Corpus
	keep []bool // by position in c
	n    int
}

func (k *keptPapers) Len() int { return k.n }

func (k *keptPapers) Each(fn func(p *search.Paper) error) error {
	i := 0
	return k.c.Each(func(p *search.Paper) error {
		i++
		if !k.keep[i-1] {
			return nil
		}
		return fn(p)
	})
}

func (k *keptPapers) Report() search.LoadReport { return k.c.Report() }
