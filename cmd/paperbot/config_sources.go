package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/paperbot/paperbot/ingest"
	"github.com/paperbot/paperbot/ingest/sources"
)

// maxBackfillDays bounds PAPERBOT_ARXIV_BACKFILL_DAYS: a month of all of cs
// is already tens of thousands of records at one request every 3 s.
const maxBackfillDays = 30

// sources parses PAPERBOT_SOURCES (validated by Validate).
func (c Config) sources() ingest.Sources {
	s, _ := ingest.ParseSources(c.Sources)
	return s
}

// validateSources checks PAPERBOT_SOURCES and what following it needs.
func (c Config) validateSources() error {
	src, err := ingest.ParseSources(c.Sources)
	if err != nil {
		return err
	}
	var errs []error
	if _, _, err := c.fetchClock(); err != nil {
		errs = append(errs, err)
	}
	if c.ArXivBackfill < 0 || c.ArXivBackfill > maxBackfillDays {
		errs = append(errs, fmt.Errorf("PAPERBOT_ARXIV_BACKFILL_DAYS must be between 0 and %d", maxBackfillDays))
	}
	if !src.Remote() {
		return errors.Join(errs...)
	}
	if c.DataDir == "" {
		errs = append(errs, errors.New("PAPERBOT_SOURCES needs PAPERBOT_DATA_DIR: fetched papers and each source's progress are kept there"))
	}
	if strings.TrimSpace(c.Contact) == "" {
		errs = append(errs, errors.New("PAPERBOT_SOURCES follows arXiv or OpenReview: set PAPERBOT_CONTACT to an e-mail or URL for their User-Agent (arXiv asks for one)"))
	} else if _, err := c.sourcesClient(nil, nil); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// fetchClock parses PAPERBOT_FETCH_AT and PAPERBOT_FETCH_TZ.
func (c Config) fetchClock() (minutes int, loc *time.Location, err error) {
	h, m, ok := strings.Cut(c.FetchAt, ":")
	hh, err1 := strconv.Atoi(h)
	mm, err2 := strconv.Atoi(m)
	if !ok || err1 != nil || err2 != nil || hh < 0 || hh > 23 || mm < 0 || mm > 59 {
		return 0, nil, fmt.Errorf("PAPERBOT_FETCH_AT must be a time of day HH:MM, such as 00:30")
	}
	loc, err = time.LoadLocation(c.FetchTZ)
	if err != nil || c.FetchTZ == "" {
		return 0, nil, fmt.Errorf("PAPERBOT_FETCH_TZ must be an IANA time zone such as America/New_York")
	}
	return hh*60 + mm, loc, nil
}

// nextFetch is the first scheduled fetch strictly after t.
func (c Config) nextFetch(t time.Time) time.Time {
	minutes, loc, err := c.fetchClock()
	if err != nil {
		return t.Add(24 * time.Hour)
	}
	lt := t.In(loc)
	at := time.Date(lt.Year(), lt.Month(), lt.Day(), minutes/60, minutes%60, 0, 0, loc)
	for !at.After(t) {
		lt = lt.AddDate(0, 0, 1)
		at = time.Date(lt.Year(), lt.Month(), lt.Day(), minutes/60, minutes%60, 0, 0, loc)
	}
	return at
}

// sourcesClient is the polite HTTP client of the sources; now and sleep are
// the clock (nil: the real one).
func (c Config) sourcesClient(now func() time.Time, sleep func(ctx context.Context, d time.Duration) error) (*sources.Client, error) {
	return sources.NewClient(sources.Config{
		Contact: c.Contact, RSSURL: c.ArXivURL, OAIURL: c.ArXivOAIURL, APIURL: c.ArXivAPIURL, OpenReviewURL: c.OpenReviewURL,
		OpenReviewToken: c.OpenReviewToken, Now: now, Sleep: sleep,
	})
}
