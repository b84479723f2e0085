package ingest

import (
	"context"
	"fmt"
	"time"

	"github.com/paperbot/paperbot/ingest/sources"
)

// runArXiv takes in the followed categories: first a harvest over OAI-PMH
// when runs were missed, one was interrupted, or (Config.Backfill) this is
// the first run, then today's announcement feed unless today's was already
// taken in.
func (f *Fetcher) runArXiv(ctx context.Context) (Changes, error) {
	var total Changes
	p := f.get(KindArXiv)
	now := f.cfg.Now()
	today := day(now)
	if p.Harvest == nil && p.Day != "" && p.Day < day(now.Add(-24*time.Hour)) {
		// Down for more than a day: the feeds of the missed days are gone;
		// OAI-PMH lists them by datestamp.
		from := p.Day
		if limit := day(now.Add(-f.cfg.MaxCatchUp)); from < limit {
			from = limit
		}
		p.Harvest = &Harvest{Sets: oaiSets(f.cfg.Sources.ArXiv), From: from, Until: today}
	}
	if p.Harvest == nil && p.Day == "" && p.LastDatestamp == "" && f.cfg.Backfill > 0 {
		// Never ran: the feed has only today; back-fill the days before
		// through the same resumable harvest.
		p.Harvest = &Harvest{Sets: oaiSets(f.cfg.Sources.ArXiv), From: day(now.Add(-f.cfg.Backfill)), Until: today}
	}
	for p.Harvest != nil && len(p.Harvest.Sets) > 0 {
		h := *p.Harvest
		q := sources.OAIQuery{Set: h.Sets[0], From: h.From, Until: h.Until, Token: h.Token}
		_, err := f.cfg.Client.HarvestOAI(ctx, q, func(recs []sources.Record, prog sources.OAIProgress) error {
			var keep []sources.Record
			for _, r := range recs {
				if wanted(r, f.cfg.Sources.ArXiv) {
					keep = append(keep, r)
				}
			}
			next := h
			next.Sets = append([]string(nil), h.Sets...)
			next.Token = prog.Token
			if prog.Done {
				next.Sets, next.Token = next.Sets[1:], ""
			}
			p.Harvest = &next
			if prog.LastDatestamp > p.LastDatestamp {
				p.LastDatestamp = prog.LastDatestamp
			}
			ch, err := f.apply(ctx, keep, p)
			total = total.Add(ch)
			return err
		})
		if err != nil {
			return total, err
		}
		p = f.get(KindArXiv)
		if p.Harvest != nil && len(p.Harvest.Sets) == len(h.Sets) && p.Harvest.Token == h.Token {
			p.Harvest.Sets = p.Harvest.Sets[1:] // no page came back: never loop on one set
		}
		if p.Harvest != nil && len(p.Harvest.Sets) == 0 {
			p.Harvest = nil
		}
	}
	if p.Day == today {
		return total, f.save(ctx, nil, p) // today's feed is in; never fetch a finished day again
	}
	feed, err := f.cfg.Client.ArXivRSS(ctx, f.cfg.Sources.ArXiv)
	if err != nil {
		return total, err
	}
	p.Day = today
	if !feed.Date.IsZero() {
		if d := day(feed.Date); d < today {
			// An old feed (arXiv has not turned over yet): take it in,
			// but ask again on the next run.
			p.Day = d
		}
	}
	recs := feed.Records
	for i := range recs {
		if recs[i].Announced.IsZero() {
			recs[i].Announced = feed.Date
		}
	}
	ch, err := f.apply(ctx, recs, p)
	total = total.Add(ch)
	if err != nil {
		return total, fmt.Errorf("arxiv rss: %w", err)
	}
	return total, nil
}
