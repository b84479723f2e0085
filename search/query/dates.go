package query

import (
	"regexp"
	"strconv"
	"time"
)

// categoryRe is the form of an arXiv category or archive: cs.LG, hep-ex.
var categoryRe = regexp.MustCompile(`^[a-z][a-z-]*(\.[A-Za-z-]+)?$`)

// Filters over what a feed records of a paper (see Filter):
//
//	cat:cs.LG            papers in an arXiv category (cat:cs.LG cat:stat.ML: either)
//	since:7d             first seen by paperbot in the last 7 days (also 24h, 2w, or since:2026-11-01)
//	date:2026-11         announced in November 2026 (also date:2026 or date:2026-11-05)
const (
	fieldSince = "since"
	fieldDate  = "date"
)

const (
	catHelp   = "write an arXiv category such as cat:cs.LG"
	sinceHelp = "use since:7d, since:24h, since:2w or since:2026-11-01"
	dateHelp  = "use date:2026, date:2026-11 or date:2026-11-05"
)

// feedClause parses a cat:, since: or date: value into q.
func feedClause(q *Parsed, field, value string, not bool) error {
	name := field
	if field == FieldCategories {
		name = "cat"
	}
	if not {
		return invalidf("-%s: is not supported: %s filters keep papers, they cannot leave them out", name, name)
	}
	switch field {
	case FieldCategories:
		if !categoryRe.MatchString(value) {
			return invalidf("cat:%s is not an arXiv category: %s", value, catHelp)
		}
		q.Filter.Categories = append(q.Filter.Categories, value)
	case fieldSince:
		if d, ok := parseAgo(value); ok {
			if q.SinceAgo == 0 || d < q.SinceAgo {
				q.SinceAgo = d
			}
			return nil
		}
		t, err := time.Parse(time.DateOnly, value)
		if err != nil {
			return invalidf("since:%s is not a time span or a date: %s", value, sinceHelp)
		}
		if t.After(q.Filter.SeenSince) {
			q.Filter.SeenSince = t
		}
	case fieldDate:
		from, until, ok := parseDateRange(value)
		if !ok {
			return invalidf("date:%s is not a year, month or day: %s", value, dateHelp)
		}
		if !q.Filter.AnnouncedFrom.IsZero() {
			return invalidf("give one date: filter, not several")
		}
		q.Filter.AnnouncedFrom, q.Filter.AnnouncedUntil = from, until
	}
	return nil
}

// parseAgo reads 7d, 24h, 2w (a positive whole number of hours, days or
// weeks, at most a year).
func parseAgo(v string) (time.Duration, bool) {
	if len(v) < 2 {
		return 0, false
	}
	n, err := strconv.Atoi(v[:len(v)-1])
	if err != nil || n <= 0 {
		return 0, false
	}
	unit := map[byte]time.Duration{'h': time.Hour, 'd': 24 * time.Hour, 'w': 7 * 24 * time.Hour}[v[len(v)-1]]
	if unit == 0 || time.Duration(n)*unit > 366*24*time.Hour {
		return 0, false
	}
	return time.Duration(n) * unit, true
}

// parseDateRange reads a year, month or day as the inclusive range of
// instants it covers, in UTC.
func parseDateRange(v string) (from, until time.Time, ok bool) {
	for _, l := range []struct {
		layout string
		next   func(time.Time) time.Time
	}{
		{time.DateOnly, func(t time.Time) time.Time { return t.AddDate(0, 0, 1) }},
		{"2006-01", func(t time.Time) time.Time { return t.AddDate(0, 1, 0) }},
		{"2006", func(t time.Time) time.Time { return t.AddDate(1, 0, 0) }},
	} {
		if t, err := time.Parse(l.layout, v); err == nil {
			return t, l.next(t).Add(-time.Nanosecond), true
		}
	}
	return time.Time{}, time.Time{}, false
}

// WithRequest is q's filter combined with a request's, since: resolved
// against now. Both restrict: the narrower bound of each kind wins, and
// categories typed in the query replace the request's.
func (q *Parsed) WithRequest(r Filter, now time.Time) Filter {
	f := q.Filter
	if len(f.Categories) == 0 {
		f.Categories = r.Categories
	}
	if q.SinceAgo > 0 {
		if t := now.Add(-q.SinceAgo); t.After(f.SeenSince) {
			f.SeenSince = t
		}
	}
	if r.SeenSince.After(f.SeenSince) {
		f.SeenSince = r.SeenSince
	}
	if r.AnnouncedFrom.After(f.AnnouncedFrom) {
		f.AnnouncedFrom = r.AnnouncedFrom
	}
	if !r.AnnouncedUntil.IsZero() && (f.AnnouncedUntil.IsZero() || r.AnnouncedUntil.Before(f.AnnouncedUntil)) {
		f.AnnouncedUntil = r.AnnouncedUntil
	}
	return f
}

// HasFeedFilter reports whether the query typed a cat:, since: or date: filter.
func (q *Parsed) HasFeedFilter() bool {
	return len(q.Filter.Categories) > 0 || q.SinceAgo > 0 || !q.Filter.SeenSince.IsZero() || !q.Filter.AnnouncedFrom.IsZero()
}

// Filter restricts a search by what a feed records of a paper; the zero
// Filter restricts nothing. Papers with an unknown value (no categories, a
// zero date) never pass a filter on it.
type Filter struct {
	// Categories keeps papers in any of these arXiv categories ("cs.CL"),
	// matched exactly.
	Categories []string
	// AnnouncedFrom and AnnouncedUntil bound search.Paper.Announced, inclusive;
	// zero leaves a side open.
	AnnouncedFrom, AnnouncedUntil time.Time
	// SeenSince keeps papers paperbot first saw at or after it
	// (search.Paper.FirstSeen).
	SeenSince time.Time
}
