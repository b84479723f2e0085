package bot

import (
	"context"

	"github.com/paperbot/paperbot/search"
)

// MaxSimilarResults bounds how far "More like this" pages: past a few pages
// the resemblance is too weak to be worth reading.
const MaxSimilarResults = 30

// fetched is what one view shows, read from the index before anything is
// rendered.
type fetched struct {
	State viewState
	// Paper is the paper shown (viewPaper) or the one the results resemble
	// (viewSimilar).
	Paper search.Paper
	// Results is the page shown (viewSearch, viewSimilar).
	Results *search.Results
	// PageSize is how many results a page of this view holds, for its
	// pager (pageSize).
	PageSize int
}

// noMatch reports whether a search or similar view found nothing relevant:
// the index said so (Results.NoMatch) or the page is empty.
func (f fetched) noMatch() bool { return f.State.Kind != viewPaper && nothingFound(f.Results) }

// fetch reads from the index what st describes: one paper, a page of papers
// like one, or a page of search results. Errors are the index's (unknown
// IDs and malformed queries are *fault.Error the user reads). answer asks
// for an answer sentence on every result, as a conversation (a mention, a
// DM) is answered.
func (b *Bot) fetch(ctx context.Context, st viewState, answer bool) (fetched, error) {
	// A search's text is parsed once: for the page size it asks for, then
	// searched. A text that does not parse is searched as text, for the
	// index's message saying what is wrong.
	var query *search.Query
	if st.Kind == viewSearch {
		query, _ = search.ParseQuery(st.Arg)
	}
	f := fetched{State: st, PageSize: b.pageSize(query)}
	var err error
	switch st.Kind {
	case viewPaper:
		f.Paper, err = b.searcher.Get(st.Arg)
	case viewSimilar:
		if f.Paper, err = b.searcher.Get(st.Arg); err != nil {
			return f, err
		}
		// Similar has no offset: fetch up to the end of the page, keep the page.
		var res *search.Results
		res, err = b.searcher.Similar(ctx, st.Arg, min(st.Offset+f.PageSize, MaxSimilarResults))
		if err == nil {
			f.Results = pageOf(res, st.Offset)
		}
	case viewText:
		f.Results, err = b.searcher.SimilarText(ctx, st.Arg, f.PageSize)
	default:
		f.Results, err = b.searcher.Search(ctx, search.Request{Text: st.Arg, Query: query, Limit: f.PageSize, Offset: st.Offset, Answer: answer})
	}
	return f, err
}

// pageOf keeps the results from offset on, as the page starting there.
func pageOf(res *search.Results, offset int) *search.Results {
	page := *res
	page.Offset = offset
	page.Results = res.Results[min(offset, len(res.Results)):]
	page.Total = min(res.Total, MaxSimilarResults)
	return &page
}

// pageSize is how many results a page shows: as many as the search query
// asks for ("give me 3 papers on world models"), up to a message's worth,
// else (no query: not a search, or one that does not parse) the
// configured page size. fetch works it out once per view.
func (b *Bot) pageSize(query *search.Query) int {
	if query != nil {
		if n := query.AskedCount(); n > 0 {
			return min(n, maxPageSize)
		}
	}
	return b.cfg.PageSize
}
