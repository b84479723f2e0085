package search

import (
	"context"
	"strings"

	bq "github.com/blevesearch/bleve/v2/search/query"
)

// maxTitled bounds PapersTitled's answer: titles that many papers share
// ("Introduction") are no identity anyway.
const maxTitled = 20

// PapersTitled returns up to 20 papers whose title contains title's words
// as a phrase (after the title field's analysis: case, stop words and word
// endings are ignored), best first. It is a cheap candidate list for
// matching a paper by title; callers compare the titles exactly themselves.
// An empty title finds nothing.
func (ix *Index) PapersTitled(ctx context.Context, title string) ([]Paper, error) {
	if strings.TrimSpace(title) == "" {
		return nil, nil
	}
	st, release, err := ix.live()
	if err != nil {
		return nil, err
	}
	defer release()
	q := bq.NewMatchPhraseQuery(title)
	q.SetField(fieldTitle)
	cands, _, err := st.run(ctx, q, maxTitled)
	if err != nil {
		return nil, err
	}
	out := make([]Paper, 0, len(cands))
	for _, c := range cands {
		out = append(out, c.doc.Paper)
	}
	return out, nil
}
