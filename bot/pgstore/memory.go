package pgstore

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/paperbot/paperbot/bot/memory"
	"github.com/paperbot/paperbot/fault"
)

var _ memory.Store = (*Store)(nil)

func (s *Store) Save(ctx context.Context, owner memory.Owner, saved memory.Saved) (bool, error) {
	if err := owner.Validate(); err != nil {
		return false, err
	}
	if err := saved.Validate(); err != nil {
		return false, err
	}
	v, err := json.Marshal(saved)
	if err != nil {
		return false, err
	}
	tag, err := s.pool.Exec(ctx, `INSERT INTO saved_papers (owner, paper_id, saved_by, data) VALUES ($1, $2, $3, $4)
		ON CONFLICT (owner, paper_id) DO NOTHING`, owner.String(), saved.Paper.ID, saved.SavedBy, v)
	if err != nil {
		return false, fmt.Errorf("list %s: %w", owner, err)
	}
	return tag.RowsAffected() == 1, nil
}

func (s *Store) List(ctx context.Context, owner memory.Owner) ([]memory.Saved, error) {
	rows, err := s.pool.Query(ctx, "SELECT data FROM saved_papers WHERE owner = $1", owner.String())
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", owner, err)
	}
	out, err := collectJSON[memory.Saved](rows, "list "+owner.String())
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", owner, err)
	}
	memory.SortSaved(out)
	return out, nil
}

func (s *Store) SetRead(ctx context.Context, owner memory.Owner, paperID string, read bool) error {
	return s.inTx(ctx, func(tx pgx.Tx) error {
		what := fmt.Sprintf("paper %s on list %s", paperID, owner)
		saved, err := getJSON[memory.Saved](ctx, tx, what, "SELECT data FROM saved_papers WHERE owner = $1 AND paper_id = $2 FOR UPDATE", owner.String(), paperID)
		if err != nil {
			return err
		}
		saved.Read = read
		v, err := json.Marshal(saved)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, "UPDATE saved_papers SET data = $3 WHERE owner = $1 AND paper_id = $2", owner.String(), paperID, v)
		return err
	})
}

func (s *Store) Remove(ctx context.Context, owner memory.Owner, paperID string) error {
	tag, err := s.pool.Exec(ctx, "DELETE FROM saved_papers WHERE owner = $1 AND paper_id = $2", owner.String(), paperID)
	if err != nil {
		return fmt.Errorf("list %s: %w", owner, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("paper %s on list %s: %w", paperID, owner, fault.NotFound)
	}
	return nil
}

func (s *Store) SetVote(ctx context.Context, v memory.Vote) error {
	if err := v.Validate(); err != nil {
		return err
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = s.pool.Exec(ctx, `INSERT INTO votes (channel_id, paper_id, user_id, data) VALUES ($1, $2, $3, $4)
		ON CONFLICT (channel_id, paper_id, user_id) DO UPDATE SET data = EXCLUDED.data`, v.Channel, v.PaperID, v.User, raw)
	if err != nil {
		return fmt.Errorf("vote in %s: %w", v.Channel, err)
	}
	return nil
}

func (s *Store) ClearVote(ctx context.Context, channel, user, paperID string) error {
	if _, err := s.pool.Exec(ctx, "DELETE FROM votes WHERE channel_id = $1 AND paper_id = $2 AND user_id = $3", channel, paperID, user); err != nil {
		return fmt.Errorf("vote in %s: %w", channel, err)
	}
	return nil
}

func (s *Store) VoteOf(ctx context.Context, channel, user, paperID string) (int, error) {
	v, err := getJSON[memory.Vote](ctx, s.pool, "vote", "SELECT data FROM votes WHERE channel_id = $1 AND paper_id = $2 AND user_id = $3", channel, paperID, user)
	if fault.KindOf(err) == fault.NotFound {
		return 0, nil
	}
	return v.Value, err
}

func (s *Store) Votes(ctx context.Context, channel string) ([]memory.Vote, error) {
	rows, err := s.pool.Query(ctx, "SELECT data FROM votes WHERE channel_id = $1", channel)
	if err != nil {
		return nil, fmt.Errorf("votes in %s: %w", channel, err)
	}
	out, err := collectJSON[memory.Vote](rows, "votes in "+channel)
	if err != nil {
		return nil, fmt.Errorf("votes in %s: %w", channel, err)
	}
	memory.SortVotes(out)
	return out, nil
}

func (s *Store) Forget(ctx context.Context, user string) (votes, saved int, err error) {
	if user == "" {
		return 0, 0, fault.E("forget", fault.Invalid, "no user to forget")
	}
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, "DELETE FROM saved_papers WHERE owner = $1", memory.User(user).String())
		if err != nil {
			return err
		}
		saved = int(tag.RowsAffected())
		// Channel lists keep the paper, not who saved it.
		if _, err := tx.Exec(ctx, "UPDATE saved_papers SET saved_by = '', data = data - 'saved_by' WHERE saved_by = $1", user); err != nil {
			return err
		}
		tag, err = tx.Exec(ctx, "DELETE FROM votes WHERE user_id = $1", user)
		if err != nil {
			return err
		}
		votes = int(tag.RowsAffected())
		return nil
	})
	if err != nil {
		return 0, 0, fmt.Errorf("forget %s: %w", user, err)
	}
	return votes, saved, nil
}
