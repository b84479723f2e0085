package ingest

import (
	"context"
	"time"
)

// Progress is where one source stands, kept in the Store so that a restart
// continues where the last run stopped.
type Progress struct {
	// Source names the source: "arxiv" or "openreview:VENUE".
	Source string `json:"source"`
	// Day is the last announcement day fully taken in (YYYY-MM-DD, arXiv's
	// RSS day): a later run that day fetches nothing again.
	Day string `json:"day,omitempty"`
	// LastDatestamp is the latest OAI-PMH datestamp harvested.
	LastDatestamp string `json:"last_datestamp,omitempty"`
	// Harvest is an OAI-PMH catch-up in progress: its query and the
	// resumption token of its next page.
	Harvest *Harvest `json:"harvest,omitempty"`
	// LastSuccess is the end of the last run without error; LastError and
	// LastErrorAt describe the last failed run ("" once one succeeds).
	LastSuccess time.Time `json:"last_success,omitzero"`
	LastError   string    `json:"last_error,omitempty"`
	LastErrorAt time.Time `json:"last_error_at,omitzero"`
	// LastChanges is what the last successful run merged.
	LastChanges Changes `json:"last_changes"`
}

// Failing reports whether the source's last run failed.
func (p Progress) Failing() bool { return p.LastError != "" }

// Harvest is an interrupted OAI-PMH catch-up.
type Harvest struct {
	// Sets are the OAI sets still to list, the one in progress first.
	Sets  []string `json:"sets"`
	From  string   `json:"from,omitempty"`
	Until string   `json:"until,omitempty"`
	Token string   `json:"token"`
}

// Store keeps the catalog and the sources' progress. Save writes entries and
// a progress in one transaction: a page of records and the token that
// follows it are stored together or not at all. Saved entries stay pending
// until the index has applied them, so a process that dies in between
// applies them after its restart. Implementations are safe for concurrent
// use.
type Store interface {
	// Load returns every entry and every source's progress.
	Load(ctx context.Context) ([]Entry, []Progress, error)
	// Save stores entries (replacing those with the same ID), marks them
	// pending, and stores p.
	Save(ctx context.Context, entries []Entry, p Progress) error
	// Pending lists the IDs of entries saved and not yet marked applied.
	Pending(ctx context.Context) ([]string, error)
	// Applied clears ids from the pending list.
	Applied(ctx context.Context, ids []string) error
}

// ChangeLog is a Store that numbers what it saves, so that an index in
// another process can follow the catalog: every entry Save stores takes the
// next number of one increasing sequence, replacing the number it had.
// Numbers are given in the order saves commit, so a reader that has seen
// up to n misses nothing by asking for what follows n. Both stores
// (feedstore, bot/pgstore) implement it.
type ChangeLog interface {
	Store
	// Seq is the number of the latest change, 0 before any.
	Seq(ctx context.Context) (int64, error)
	// ChangesSince returns up to limit entries whose latest change is
	// numbered after seq, in the order of their numbers, and the number of
	// the last one returned (seq itself when there is none).
	ChangesSince(ctx context.Context, seq int64, limit int) ([]Entry, int64, error)
	// Progress returns every source's progress (Load without the entries).
	Progress(ctx context.Context) ([]Progress, error)
}
