package memory

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/paperbot/paperbot/fault"
)

// Vote is one user's opinion of a paper in a channel: Up or Down. A user
// holds at most one vote per paper and channel; the latest counts.
type Vote struct {
	Channel string    `json:"channel"`
	User    string    `json:"user"`
	PaperID string    `json:"paper"`
	Value   int       `json:"value"` // Up or Down
	At      time.Time `json:"at"`
}

// Vote values.
const (
	Up   = 1
	Down = -1
)

// Validate refuses a vote without its three IDs or with another value.
func (v Vote) Validate() error {
	switch {
	case v.Channel == "" || v.User == "" || v.PaperID == "":
		return fault.E("vote", fault.Invalid, "a vote needs a channel, a user and a paper")
	case strings.ContainsAny(v.Channel+v.User+v.PaperID, " \x00"):
		return fault.E("vote", fault.Invalid, "IDs have no spaces")
	case v.Value != Up && v.Value != Down:
		return fault.Errorf("vote", fault.Invalid, "a vote is +1 or -1, not %d", v.Value)
	}
	return nil
}

// Tally counts a paper's votes in a channel.
type Tally struct{ Up, Down int }

// Tallies counts votes by paper ID.
func Tallies(votes []Vote) map[string]Tally {
	out := map[string]Tally{}
	for _, v := range votes {
		t := out[v.PaperID]
		if v.Value == Up {
			t.Up++
		} else {
			t.Down++
		}
		out[v.PaperID] = t
	}
	return out
}

func (t Tally) String() string { return fmt.Sprintf("+%d/-%d", t.Up, t.Down) }

// SortVotes puts votes in the Store order: oldest first, then by paper and
// user as boltstore keys them.
func SortVotes(votes []Vote) {
	slices.SortFunc(votes, func(a, b Vote) int {
		return cmp.Or(a.At.Compare(b.At), cmp.Compare(a.PaperID+" "+a.User, b.PaperID+" "+b.User))
	})
}
