package search

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/paperbot/paperbot/search/corpus"
	"github.com/paperbot/paperbot/search/query"
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

// Lookup finds the paper a user means by ref: its ID, its link (any form of
// it corpus.PaperLinkKey knows: "arxiv.org/pdf/2309.17453v2" for the paper
// at arxiv.org/abs/2309.17453), or its title typed in full (case,
// punctuation and spacing aside), or enough words of the title, in order,
// that only one paper's title has them, or the one word a title names
// before its colon ("KIVI"). People reach for a title
// ("similar Vision Transformers Need Registers") before they know IDs
// exist. An error of kind NotFound says which it tried.
func (ix *Index) Lookup(ctx context.Context, ref string) (Paper, error) {
	ref = strings.TrimSpace(ref)
	p, err := ix.Get(ref)
	if KindOf(err) != NotFound {
		return p, err
	}
	if key, ok := corpus.PaperLinkKey(ref); ok {
		return ix.paperAtLink(ctx, ref, key)
	}
	if len(strings.Fields(ref)) < 2 {
		return ix.paperNamed(ctx, ref, err)
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
	msg := fmt.Sprintf("no paper has the ID or the title %q; IDs are shown next to each search result", query.Excerpt(ref))
	if len(papers) > 1 {
		msg = fmt.Sprintf("%d papers have %q in their titles; give the whole title or the paper's ID (shown next to each search result)", len(papers), query.Excerpt(ref))
	}
	return Paper{}, &Error{Op: "get paper", Kind: NotFound, Msg: msg}
}

// paperNamed finds the one paper whose title opens with the name word
// before its colon ("KIVI" for "KIVI: A Tuning-Free Asymmetric 2bit
// Quantization for KV Cache"): people call papers by their method's name.
// notFound is returned when no title opens with it.
func (ix *Index) paperNamed(ctx context.Context, word string, notFound error) (Paper, error) {
	papers, err := ix.PapersTitled(ctx, word)
	if err != nil {
		return Paper{}, err
	}
	want := titleKey(word)
	var named []Paper
	for _, p := range papers {
		if name, _, ok := strings.Cut(p.Title, ":"); ok && titleKey(name) == want {
			named = append(named, p)
		}
	}
	switch len(named) {
	case 0:
		if KindOf(notFound) != NotFound {
			return Paper{}, notFound
		}
		return Paper{}, &Error{Op: "get paper", Kind: NotFound, Msg: fmt.Sprintf("no paper has the ID or the name %q; IDs are shown next to each search result", query.Excerpt(word))}
	case 1:
		return named[0], nil
	}
	return Paper{}, &Error{Op: "get paper", Kind: NotFound, Msg: fmt.Sprintf("%d papers are called %q; give the whole title or the paper's ID (shown next to each search result)", len(named), query.Excerpt(word))}
}

// paperAtLink returns the paper whose own link has key (typed as link); an
// error of kind NotFound when none has.
func (ix *Index) paperAtLink(ctx context.Context, link, key string) (Paper, error) {
	st, release, err := ix.live()
	if err != nil {
		return Paper{}, err
	}
	defer release()
	r, ok, err := st.recordAtLink(ctx, key)
	if err != nil {
		return Paper{}, err
	}
	if !ok {
		return Paper{}, &Error{Op: "get paper", Kind: NotFound, Msg: fmt.Sprintf("no paper here has the link %q: it may not be in this corpus", query.ExcerptN(link, 80))}
	}
	return r.Paper, nil
}

// recordAtLink returns the paper whose own link has key.
func (s *state) recordAtLink(ctx context.Context, key string) (*record, bool, error) {
	q := bq.NewTermQuery(key)
	q.SetField(fieldLink)
	cands, _, err := s.run(ctx, q, 1)
	if err != nil || len(cands) == 0 {
		return nil, false, err
	}
	return cands[0].doc, true, nil
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
