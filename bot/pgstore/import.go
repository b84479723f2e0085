package pgstore

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/bot/memory"
	"github.com/paperbot/paperbot/fault"
)

// Records are what Import copies in: the fields of boltstore.Records, so
// one converts to the other.
type Records struct {
	Subscriptions []digest.Subscription
	Runs          []digest.Run
	Ledger        map[string]map[string]string // channel ID → paper ID → run key
	Lists         map[string][]memory.Saved    // memory.Owner.String() → its list
	Votes         []memory.Vote
}

// Counts are how many records of each kind a store holds.
type Counts struct{ Subscriptions, Runs, Ledger, Saved, Votes int }

// Count counts r's records.
func (r Records) Count() Counts {
	c := Counts{Subscriptions: len(r.Subscriptions), Runs: len(r.Runs), Votes: len(r.Votes)}
	for _, papers := range r.Ledger {
		c.Ledger += len(papers)
	}
	for _, l := range r.Lists {
		c.Saved += len(l)
	}
	return c
}

func (c Counts) String() string {
	return fmt.Sprintf("%d subscriptions, %d digest runs, %d posted papers, %d saved papers, %d votes",
		c.Subscriptions, c.Runs, c.Ledger, c.Saved, c.Votes)
}

// Import copies r into the store, in one transaction, and verifies that the
// tables then hold exactly r's counts. It refuses (fault.Exists) a database
// that already holds any of these records: nothing is merged or overwritten.
func (s *Store) Import(ctx context.Context, r Records) (Counts, error) {
	want := r.Count()
	var got Counts
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		have, err := countRecords(ctx, tx)
		if err != nil {
			return err
		}
		if have != (Counts{}) {
			return fault.Errorf("migrate", fault.Exists, "database %s already holds %s: migrate into an empty database", s.where, have)
		}
		b := &pgx.Batch{}
		for _, sub := range r.Subscriptions {
			v, err := json.Marshal(sub)
			if err != nil {
				return err
			}
			b.Queue("INSERT INTO subscriptions (id, channel_id, created_by, paused, data) VALUES ($1, $2, $3, $4, $5)",
				sub.ID, sub.ChannelID, sub.CreatedBy, sub.Paused, v)
		}
		for _, run := range r.Runs {
			v, err := json.Marshal(run)
			if err != nil {
				return err
			}
			b.Queue("INSERT INTO digest_runs (run_key, state, data) VALUES ($1, $2, $3)", run.Key.String(), string(run.State), v)
		}
		for channel, papers := range r.Ledger {
			for paper, key := range papers {
				b.Queue("INSERT INTO digest_ledger (channel_id, paper_id, run_key) VALUES ($1, $2, $3)", channel, paper, key)
			}
		}
		for owner, list := range r.Lists {
			for _, saved := range list {
				v, err := json.Marshal(saved)
				if err != nil {
					return err
				}
				b.Queue("INSERT INTO saved_papers (owner, paper_id, saved_by, data) VALUES ($1, $2, $3, $4)", owner, saved.Paper.ID, saved.SavedBy, v)
			}
		}
		for _, vote := range r.Votes {
			v, err := json.Marshal(vote)
			if err != nil {
				return err
			}
			b.Queue("INSERT INTO votes (channel_id, paper_id, user_id, data) VALUES ($1, $2, $3, $4)", vote.Channel, vote.PaperID, vote.User, v)
		}
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return err
		}
		if got, err = countRecords(ctx, tx); err != nil {
			return err
		}
		if got != want {
			return fmt.Errorf("after copying, the database holds %s, not the %s read: nothing was kept", got, want)
		}
		return nil
	})
	if err != nil {
		return Counts{}, fmt.Errorf("migrate to %s: %w", s.where, err)
	}
	return got, nil
}

func countRecords(ctx context.Context, tx pgx.Tx) (Counts, error) {
	var c Counts
	err := tx.QueryRow(ctx, `SELECT (SELECT count(*) FROM subscriptions), (SELECT count(*) FROM digest_runs),
		(SELECT count(*) FROM digest_ledger), (SELECT count(*) FROM saved_papers), (SELECT count(*) FROM votes)`).
		Scan(&c.Subscriptions, &c.Runs, &c.Ledger, &c.Saved, &c.Votes)
	return c, err
}
