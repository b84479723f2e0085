package search

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

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

// Lookup finds the paper a user means by ref: its ID, or its title typed in
// full (case, punctuation and spacing aside), or enough words of the title,
// in order, that only one paper's title has them. People reach for a title
// ("similar Vision Transformers Need Registers") before they know IDs
// exist. An error of kind NotFound says which it tried.
func (ix *Index) Lookup(ctx context.Context, ref string) (Paper, error) {
	ref = strings.TrimSpace(ref)
	p, err := ix.Get(ref)
	if KindOf(err) != NotFound || len(strings.Fields(ref)) < 2 {
		return p, err
	}
	papers, err := ix.PapersTitled(ctx, ref)
	if err != nil {
		return Paper{}, err
	}
	want := titleKey(ref)
	for _, p := range papers {
		if titleKey(p.Title) == want {
			return p, nil
		}
	}
	if len(papers) == 1 {
		return papers[0], nil
	}
	if len(papers) == 0 {
		if p, ok := ix.nearTitle(ctx, want); ok {
			return p, nil
		}
	}
	msg := fmt.Sprintf("no paper has the ID or the title %q; IDs are shown next to each search result", excerpt(ref))
	if len(papers) > 1 {
		msg = fmt.Sprintf("%d papers have %q in their titles; give the whole title or the paper's ID (shown next to each search result)", len(papers), excerpt(ref))
	}
	return Paper{}, &Error{Op: "get paper", Kind: NotFound, Msg: msg}
}

// nearTitle finds the paper whose whole title is key (a titleKey) but for a
// typo or two: "Vision Transfomers Need Registers". It searches the words,
// typos forgiven, and keeps a top result whose title is within a tenth of
// its letters (at least two) of key.
func (ix *Index) nearTitle(ctx context.Context, key string) (Paper, bool) {
	res, err := ix.Search(ctx, Request{Text: key, Limit: 3})
	if err != nil {
		return Paper{}, false
	}
	limit := max(2, utf8.RuneCountInString(key)/10)
	for _, r := range res.Results {
		if _, ok := editDistance(titleKey(r.Title), key, limit); ok {
			return r.Paper, true
		}
	}
	return Paper{}, false
}

// titleKey is a title without case, punctuation or extra spaces.
func titleKey(title string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(title), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}), " ")
}
