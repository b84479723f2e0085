package main

import (
	"fmt"
	"log/slog"
	"strings"

	"github.com/paperbot/paperbot/search"
)

// maxShrinkPercent is how much of the live corpus a re-index may lose
// without --allow-shrink: a file removed on purpose loses more, a copy
// caught half-way loses some, a paper or two withdrawn loses less.
const maxShrinkPercent = 2

// shrinkRefused is returned when a re-index would lose papers: more than
// maxShrinkPercent of them, or records skipped beyond those the live corpus
// already skipped (a file cut short by a copy in progress shows up as
// skipped records first; a record that never had an abstract is no news).
type shrinkRefused struct {
	live, next           int
	liveSkipped, skipped int
	files                []string
	problems             []string
}

func (e *shrinkRefused) Error() string {
	var why []string
	if lost := e.live - e.next; lost*100 > e.live*maxShrinkPercent {
		why = append(why, fmt.Sprintf("it has %d papers where the live index has %d (%d fewer, %d%%)",
			e.next, e.live, lost, lost*100/e.live))
	}
	if e.skipped > e.liveSkipped {
		why = append(why, fmt.Sprintf("%d records were skipped where the live corpus skipped %d (%s)",
			e.skipped, e.liveSkipped, strings.Join(firstN(e.problems, 3), "; ")))
	}
	return fmt.Sprintf("re-index refused, the previous index stays live: %s; files read: %s. "+
		"Fix the files, or accept the change with --allow-shrink (paperbot index) or PAPERBOT_ALLOW_SHRINK=true",
		strings.Join(why, ", and "), strings.Join(e.files, ", "))
}

// logAttrs are the refusal's facts for a structured log line.
func (e *shrinkRefused) logAttrs() []any {
	return []any{"live_papers", e.live, "new_papers", e.next, "skipped", e.skipped, "live_skipped", e.liveSkipped,
		"files", strings.Join(e.files, ","), "first_problems", firstN(e.problems, 3),
		"override", "PAPERBOT_ALLOW_SHRINK=true"}
}

// shrinkGuard is the search.Options.Guard of paperbot: it refuses to
// replace the live index with one of next when that loses papers (see
// shrinkRefused), unless allow (the operator's explicit override) is set.
func shrinkGuard(allow bool, log *slog.Logger) func(live search.LiveCorpus, next search.LoadReport) error {
	return func(live search.LiveCorpus, next search.LoadReport) error {
		n := next.Papers
		lost := live.Papers - n
		if lost*100 <= live.Papers*maxShrinkPercent && next.Skipped <= live.Skipped {
			return nil
		}
		refusal := &shrinkRefused{live: live.Papers, next: n, liveSkipped: live.Skipped, skipped: next.Skipped,
			files: next.Files, problems: next.Problems}
		if allow {
			log.Warn("re-index loses papers; accepted because of PAPERBOT_ALLOW_SHRINK or --allow-shrink", refusal.logAttrs()...)
			return nil
		}
		return refusal
	}
}
