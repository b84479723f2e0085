package digest

import (
	"strings"
	"time"
)

// RunKey identifies one digest run: a subscription and the local date the
// digest covers. At most one digest is posted per key.
type RunKey struct {
	SubscriptionID string
	Day            Date
}

// String is the key's stable text form, "s7k2qm/2025-03-10"; it is what
// posted messages carry in their metadata.
func (k RunKey) String() string { return k.SubscriptionID + "/" + k.Day.String() }

// ParseRunKey reads the form String writes.
func ParseRunKey(s string) (RunKey, error) {
	id, day, ok := strings.Cut(s, "/")
	if !ok || !ValidID(id) {
		return RunKey{}, invalidf("run key %q: want SUBSCRIPTION/YYYY-MM-DD", s)
	}
	d, err := ParseDate(day)
	if err != nil {
		return RunKey{}, invalidf("run key %q: %v", s, err)
	}
	return RunKey{id, d}, nil
}

// RunState is where a digest run is in its life.
//
//	Claimed ─Choose→ Posting ─MarkPosted→ Posted
//	   │                │
//	   └──────Finish────┴──→ Skipped | Failed
type RunState string

const (
	Claimed RunState = "claimed" // someone owns the run; nothing chosen or posted yet
	Posting RunState = "posting" // papers chosen; a message may or may not exist
	Posted  RunState = "posted"  // the message exists (TS) and the ledger has its papers
	Skipped RunState = "skipped" // deliberately not posted (too late, nothing new)
	Failed  RunState = "failed"  // could not be posted (channel gone, retries exhausted)
)

// Done reports whether the run is final.
func (s RunState) Done() bool { return s == Posted || s == Skipped || s == Failed }

// Run is one entry of the digest run log.
type Run struct {
	Key       RunKey    `json:"key"`
	ChannelID string    `json:"channel_id"`
	Scheduled time.Time `json:"scheduled"` // the instant the run was due
	State     RunState  `json:"state"`
	// Papers are the chosen paper IDs, fixed before posting so a retried or
	// recovered post shows the same papers.
	Papers    []string  `json:"papers,omitempty"`
	TS        string    `json:"ts,omitempty"`     // the posted message's timestamp
	Reason    string    `json:"reason,omitempty"` // why skipped or failed; last transient error
	Attempts  int       `json:"attempts,omitempty"`
	ClaimedAt time.Time `json:"claimed_at"`
	UpdatedAt time.Time `json:"updated_at"`
}
