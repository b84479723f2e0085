package digest

import (
	"context"
	"errors"
	"time"

	"github.com/paperbot/paperbot/search"
)

// Digest is one message to post: the new papers of a subscription for a day.
// Rendering it is the Poster's job.
type Digest struct {
	Key          RunKey
	Subscription Subscription
	// Scheduled is the instant the digest was due.
	Scheduled time.Time
	// Late is true for a catch-up digest posted well after Scheduled: its
	// message must say which day (Key.Day) it covers.
	Late bool
	// Papers are the new papers, best first; more than fit one message
	// continue in its thread.
	Papers []search.Result
	// NothingNew is true when Papers is empty and the subscription's channel
	// still gets a one-line "nothing new today" (Config.PostNothingNew).
	NothingNew bool
	// Lifted says, by paper ID, why the channel's votes moved a paper up
	// (see Reranker); nil when they moved none.
	Lifted map[string]Lift
}

// Reranker is what a Searcher may also do: order the unseen papers a topic
// found for a channel by what its readers voted (package bot/taste). It
// returns the same papers in its order, and why it lifted any; it never
// adds one.
type Reranker interface {
	Rerank(ctx context.Context, channelID string, cands []search.Result) ([]search.Result, map[string]Lift, error)
}

// Lift is why votes moved a paper up a channel's digest.
type Lift struct {
	// Because is the title of the liked paper it is most like.
	Because string
	// From is its place (1-based) in the topic's own order.
	From int
}

// Searcher finds papers; *search.Index implements it.
type Searcher interface {
	Search(ctx context.Context, r search.Request) (*search.Results, error)
	// Get returns a paper by ID, an error of kind search.NotFound when the
	// corpus no longer has it.
	Get(id string) (search.Paper, error)
}

// Poster posts digests to Slack; package bot implements it.
type Poster interface {
	// Post posts d to d.Subscription.ChannelID as one message (plus thread
	// replies for papers that do not fit) carrying d.Key.String() in its
	// message metadata, and returns the top message's ts. Errors that
	// retrying cannot fix are *UnpostableError. When the top message went
	// out but a thread reply did not, the error wraps ErrIncomplete: the run
	// stays open, and the next attempt finds the message and calls Complete.
	Post(ctx context.Context, d Digest) (ts string, err error)
	// Complete posts the thread replies of d missing under its top message
	// ts, and none twice; it does nothing for a one-message digest.
	Complete(ctx context.Context, d Digest, ts string) error
	// Find looks for a message carrying key in its metadata posted to the
	// channel since the start of key.Day minus one day (UTC), and returns
	// its ts. It is how a run interrupted after posting is recognised.
	Find(ctx context.Context, channelID string, key RunKey) (ts string, found bool, err error)
}

// ErrIncomplete marks a Post whose top message went out but whose thread
// replies did not all follow.
var ErrIncomplete = errors.New("digest posted in part")

// Notifier sends a direct message to a user; package bot implements it.
type Notifier interface {
	Notify(ctx context.Context, userID, text string) error
}

// UnpostableError is a Poster error that retrying cannot fix: the bot was
// removed from the channel, the channel is archived or gone, or the app lost
// its access. The subscription is paused and its creator told why.
type UnpostableError struct {
	Code string // the Slack error code, e.g. "not_in_channel"
}

func (e *UnpostableError) Error() string { return "cannot post to the channel: " + e.Code }

// unpostable returns the Slack error code of an *UnpostableError in err's chain.
func unpostable(err error) (string, bool) {
	var u *UnpostableError
	if errors.As(err, &u) {
		return u.Code, true
	}
	return "", false
}

// UnpostableCodes are the Slack error codes the Poster must report as *UnpostableError.
var UnpostableCodes = []string{
	"not_in_channel", "channel_not_found", "is_archived", "account_inactive",
	"token_revoked", "invalid_auth", "missing_scope", "restricted_action",
}
