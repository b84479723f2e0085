// Package thread is what paperbot remembers of a conversation thread it
// answered in: the question and the cards shown, in order, so that a reply
// there ("what does the first one embed?") can name them. It imports no
// adapter; the bbolt store (bot/boltstore) and Memory implement Store.
package thread

import (
	"context"
	"time"

	"github.com/paperbot/paperbot/fault"
)

// Keep is how long a thread's context is kept after paperbot last answered
// in it: follow-ups come within days, not months.
const Keep = 14 * 24 * time.Hour

// MaxPapers bounds the cards a thread remembers (a page holds ten).
const MaxPapers = 10

// Context is what paperbot showed in one thread. Channel and TS identify it:
// TS is the thread's parent message, "" for the top level of a direct
// message.
type Context struct {
	Channel string    `json:"channel"`
	TS      string    `json:"ts"`
	Query   string    `json:"query"`           // the question the cards answered, as typed
	Papers  []string  `json:"papers"`          // paper IDs in the order the cards show them
	Focus   string    `json:"focus,omitempty"` // the paper the last follow-up was about ("that paper")
	Expires time.Time `json:"expires"`
}

// Store keeps thread contexts until they expire. Implementations must be
// safe for concurrent use. Save replaces the thread's earlier context and
// returns a fault.Invalid error for a Context that fails Validate. Get
// returns an error matching fault.NotFound for a thread never saved or
// expired at now.
type Store interface {
	Save(ctx context.Context, c Context) error
	Get(ctx context.Context, channel, ts string, now time.Time) (Context, error)
}

// Validate checks what a store is asked to keep.
func (c Context) Validate() error {
	switch {
	case c.Channel == "":
		return fault.E("save thread", fault.Invalid, "a thread needs its channel")
	case len(c.Papers) == 0:
		return fault.E("save thread", fault.Invalid, "a thread needs the papers it shows")
	case len(c.Papers) > MaxPapers:
		return fault.Errorf("save thread", fault.Invalid, "a thread remembers at most %d papers", MaxPapers)
	case c.Expires.IsZero():
		return fault.E("save thread", fault.Invalid, "a thread needs an expiry")
	}
	return nil
}

// Key is how stores key a thread: "channel/ts".
func Key(channel, ts string) string { return channel + "/" + ts }
