package ingest

import (
	"context"

	"github.com/paperbot/paperbot/ingest/sources"
)

// runOpenReview lists a venue's accepted papers, then its withdrawn
// submissions (which leave the index), once per day.
func (f *Fetcher) runOpenReview(ctx context.Context, name, venue string) (Changes, error) {
	var total Changes
	p := f.get(name)
	today := day(f.cfg.Now())
	if p.Day == today {
		return total, nil
	}
	for _, v := range []string{venue, venue + "/Withdrawn_Submission"} {
		_, err := f.cfg.Client.OpenReviewVenue(ctx, v, 0, func(recs []sources.Record, _ int) error {
			ch, err := f.apply(ctx, recs, p)
			total = total.Add(ch)
			return err
		})
		if err != nil {
			return total, err
		}
	}
	p.Day = today
	return total, f.save(ctx, nil, p)
}
