package digest

import "time"

// Arrivals says when papers arrived from the followed sources (package
// ingest's catalog implements it).
type Arrivals interface {
	// FirstSeen returns, for those of ids that arrived as new papers and are
	// still in the corpus, when paperbot first saw them. Papers from files
	// and new versions of older papers are absent.
	FirstSeen(ids []string) map[string]time.Time
}

// Fresh limits digests to papers that arrived since the subscription's
// previous digest. The zero value limits nothing: any relevant paper the
// channel has not seen qualifies, as for a fixed corpus.
type Fresh struct {
	Arrivals Arrivals
	// NewDays is how far back a subscription's first digest reaches
	// (default DefaultNewDays).
	NewDays int
}

// Defaults and bounds of Fresh.NewDays.
const (
	DefaultNewDays = 3
	MaxNewDays     = 30
)

// On reports whether digests are limited to arrivals.
func (f Fresh) On() bool { return f.Arrivals != nil }

// Days is NewDays or its default.
func (f Fresh) Days() int {
	if f.NewDays <= 0 {
		return DefaultNewDays
	}
	return f.NewDays
}

// Since is the start of the window of a run of sub due at: the previous
// scheduled run, or NewDays back for a subscription's first digest.
func (f Fresh) Since(sub Subscription, at time.Time) time.Time {
	first := at.AddDate(0, 0, -f.Days())
	occ := sub.Schedule.Between(at.Add(-MaxLookback), at.Add(-time.Nanosecond))
	if len(occ) == 0 || occ[len(occ)-1].At.Before(sub.CreatedAt) {
		return first
	}
	return occ[len(occ)-1].At
}

// keep returns which of ids arrived after since.
func (f Fresh) keep(ids []string, since time.Time) map[string]bool {
	out := make(map[string]bool, len(ids))
	for id, t := range f.Arrivals.FirstSeen(ids) {
		if t.After(since) {
			out[id] = true
		}
	}
	return out
}
