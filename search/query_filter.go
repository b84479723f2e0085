package search

import (
	"time"

	bq "github.com/blevesearch/bleve/v2/search/query"
)

// requestFilters are the bleve queries of a Request.Filter: a keyword match
// on categories and date ranges on the announced and first-seen fields.
func requestFilters(f Filter) []bq.Query {
	var out []bq.Query
	if len(f.Categories) > 0 {
		cs := make([]bq.Query, len(f.Categories))
		for i, c := range f.Categories {
			tq := bq.NewTermQuery(c)
			tq.SetField(fieldCategories)
			cs[i] = tq
		}
		out = append(out, bq.NewDisjunctionQuery(cs))
	}
	if q := dateRange(fieldAnnounced, f.AnnouncedFrom, f.AnnouncedUntil); q != nil {
		out = append(out, q)
	}
	if q := dateRange(fieldFirstSeen, f.SeenSince, time.Time{}); q != nil {
		out = append(out, q)
	}
	return out
}

// dateRange matches dates in [from, until]; nil when both are zero.
func dateRange(field string, from, until time.Time) bq.Query {
	if from.IsZero() && until.IsZero() {
		return nil
	}
	incl := true
	q := bq.NewDateRangeInclusiveQuery(from, until, &incl, &incl)
	q.SetField(field)
	return q
}
