package digest

import (
	"context"
	"time"
)

// Store keeps subscriptions, the per-channel ledger of posted papers and the
// digest run log. Implementations are safe for concurrent use and pass
// digesttest.TestStore. Every method is atomic; errors carry fault.NotFound,
// fault.Exists, ErrState or fault.Invalid where this contract names them, and are
// otherwise internal failures.
//
// Lists are ordered by CreatedAt, then ID, and return copies.
type Store interface {
	// Create stores a new subscription after Validate; fault.Exists when its ID is taken.
	Create(ctx context.Context, s Subscription) error
	// Get returns a subscription by ID; fault.NotFound.
	Get(ctx context.Context, id string) (Subscription, error)
	// Delete removes a subscription; its runs and the channel ledger stay. fault.NotFound.
	Delete(ctx context.Context, id string) error
	// ByChannel lists a channel's subscriptions, paused ones included.
	ByChannel(ctx context.Context, channelID string) ([]Subscription, error)
	// ByCreator lists the subscriptions a user created, across channels.
	ByCreator(ctx context.Context, userID string) ([]Subscription, error)
	// Active lists every subscription that is not paused.
	Active(ctx context.Context) ([]Subscription, error)
	// Pause stops a subscription's digests, saying why; pausing a paused
	// subscription updates the reason. fault.NotFound.
	Pause(ctx context.Context, id, reason string) error
	// Resume restarts a paused subscription and sets ResumedAt to at; a no-op
	// on an active one. fault.NotFound.
	Resume(ctx context.Context, id string, at time.Time) error

	// PostedIn returns which of paperIDs any digest has posted to the channel.
	PostedIn(ctx context.Context, channelID string, paperIDs []string) (map[string]bool, error)

	// Claim creates the run for run.Key in state Claimed and returns it with
	// won true; when the key already has a run it returns that run and false.
	// Exactly one of any number of concurrent claimers wins.
	Claim(ctx context.Context, run Run) (Run, bool, error)
	// GetRun returns a run; fault.NotFound.
	GetRun(ctx context.Context, key RunKey) (Run, error)
	// Choose records the papers of a Claimed run and moves it to Posting.
	// ErrState from any other state.
	Choose(ctx context.Context, key RunKey, paperIDs []string, at time.Time) error
	// Attempt records a failed, retryable post of a Posting run: Attempts
	// goes up by one and Reason becomes reason. ErrState from any other state.
	Attempt(ctx context.Context, key RunKey, reason string, at time.Time) error
	// MarkPosted, in one transaction, moves a Posting run to Posted with the
	// message timestamp, adds its papers to its channel's ledger and adds
	// their number to the subscription's PostedCount (when the subscription
	// still exists). Marking a Posted run posted again with the same ts is a
	// no-op; any other state gives ErrState.
	MarkPosted(ctx context.Context, key RunKey, ts string, at time.Time) error
	// Finish moves an unfinished run to Skipped or Failed with a reason.
	// ErrState when the run is already done; fault.Invalid for other states.
	Finish(ctx context.Context, key RunKey, state RunState, reason string, at time.Time) error
	// Unfinished lists runs in state Claimed or Posting, oldest claim first.
	Unfinished(ctx context.Context) ([]Run, error)

	// Close releases the store; later calls of other methods fail. Closing
	// twice is safe.
	Close() error
}
