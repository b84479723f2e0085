package digest

import (
	"cmp"
	"fmt"
	"slices"
	"time"
)

// The functions below are the run state machine. Store implementations call
// them inside their transaction so every store enforces the same rules.

// ValidateClaim checks a run handed to Store.Claim.
func ValidateClaim(r Run) error {
	switch {
	case !ValidID(r.Key.SubscriptionID) || r.Key.Day.IsZero():
		return invalidf("run key %q is malformed", r.Key)
	case r.ChannelID == "":
		return invalidf("run %s has no channel", r.Key)
	case r.ClaimedAt.IsZero():
		return invalidf("run %s has no claim time", r.Key)
	}
	return nil
}

// NewClaim returns the run as first stored by Claim: state Claimed, nothing
// chosen, posted or attempted yet.
func NewClaim(r Run) Run {
	return Run{Key: r.Key, ChannelID: r.ChannelID, Scheduled: r.Scheduled, State: Claimed,
		ClaimedAt: r.ClaimedAt, UpdatedAt: r.ClaimedAt}
}

func stateErr(r *Run, op string) error {
	return fmt.Errorf("run %s is %s, cannot %s: %w", r.Key, r.State, op, ErrState)
}

// ApplyChoose moves a Claimed run to Posting with the chosen paper IDs.
func ApplyChoose(r *Run, paperIDs []string, at time.Time) error {
	if r.State != Claimed {
		return stateErr(r, "choose papers")
	}
	r.State, r.Papers, r.UpdatedAt = Posting, slices.Clone(paperIDs), at
	return nil
}

// ApplyAttempt records a failed, retryable post of a Posting run.
func ApplyAttempt(r *Run, reason string, at time.Time) error {
	if r.State != Posting {
		return stateErr(r, "record an attempt")
	}
	r.Attempts++
	r.Reason, r.UpdatedAt = reason, at
	return nil
}

// ApplyPosted moves a Posting run to Posted. changed is false when the run
// was already Posted with the same ts: the caller must then not touch the
// ledger or counts again.
func ApplyPosted(r *Run, ts string, at time.Time) (changed bool, err error) {
	if ts == "" {
		return false, invalidf("run %s: a posted run needs the message ts", r.Key)
	}
	if r.State == Posted && r.TS == ts {
		return false, nil
	}
	if r.State != Posting {
		return false, stateErr(r, "mark posted")
	}
	r.State, r.TS, r.Reason, r.UpdatedAt = Posted, ts, "", at
	return true, nil
}

// ApplyFinish moves an unfinished run to Skipped or Failed.
func ApplyFinish(r *Run, state RunState, reason string, at time.Time) error {
	if state != Skipped && state != Failed {
		return invalidf("a run can only be finished as skipped or failed, not %q", state)
	}
	if r.State.Done() {
		return stateErr(r, "finish as "+string(state))
	}
	r.State, r.Reason, r.UpdatedAt = state, reason, at
	return nil
}

// SortRuns orders runs by claim time, then key.
func SortRuns(runs []Run) {
	slices.SortFunc(runs, func(a, b Run) int {
		return cmp.Or(a.ClaimedAt.Compare(b.ClaimedAt), cmp.Compare(a.Key.String(), b.Key.String()))
	})
}
