package digest

import (
	"cmp"
	"crypto/rand"
	"slices"
	"strings"
	"time"
)

// Subscription asks for a digest of new papers on Topic in a channel.
type Subscription struct {
	// ID is short and typeable ("s" and five letters or digits), unique in a Store.
	ID        string    `json:"id"`
	ChannelID string    `json:"channel_id"`
	CreatedBy string    `json:"created_by"` // Slack user ID
	Topic     string    `json:"topic"`      // a query in the /paper search language
	Schedule  Schedule  `json:"schedule"`
	CreatedAt time.Time `json:"created_at"`
	// Paused subscriptions get no digests; PauseReason says why, for people.
	Paused      bool   `json:"paused,omitempty"`
	PauseReason string `json:"pause_reason,omitempty"`
	// ResumedAt is when the subscription last left a pause: runs scheduled
	// before it are not caught up.
	ResumedAt time.Time `json:"resumed_at,omitzero"`
	// PostedCount is how many papers its digests have posted.
	PostedCount int `json:"posted_count"`
}

// Validate reports a friendly error for a subscription that cannot be stored.
func (s Subscription) Validate() error {
	switch {
	case !ValidID(s.ID):
		return invalidf("subscription ID %q is malformed", s.ID)
	case s.ChannelID == "":
		return invalidf("a subscription needs a channel")
	case s.CreatedBy == "":
		return invalidf("a subscription needs its creator")
	case strings.TrimSpace(s.Topic) == "":
		return invalidf("a subscription needs a topic")
	case len(s.Topic) > MaxTopicLen:
		return invalidf("the topic is longer than %d characters", MaxTopicLen)
	case s.CreatedAt.IsZero():
		return invalidf("a subscription needs its creation time")
	}
	return s.Schedule.Validate()
}

// activeSince is the instant before which missed runs are not caught up.
func (s Subscription) activeSince() time.Time {
	if s.ResumedAt.After(s.CreatedAt) {
		return s.ResumedAt
	}
	return s.CreatedAt
}

// idAlphabet leaves out letters and digits that read alike (0/o, 1/l/i).
const idAlphabet = "abcdefghjkmnpqrstuvwxyz23456789"

const idLen = 6

// NewID returns a fresh random subscription ID such as "s7k2qm".
func NewID() string {
	b := make([]byte, idLen)
	b[0] = 's'
	r := make([]byte, idLen-1)
	rand.Read(r) // never fails (crypto/rand panics instead, as documented)
	for i, v := range r {
		b[i+1] = idAlphabet[int(v)%len(idAlphabet)]
	}
	return string(b)
}

// NormalizeID turns a typed ID into its stored form (trimmed, lower case).
func NormalizeID(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// ValidID reports whether s has the shape of a subscription ID.
func ValidID(s string) bool {
	if len(s) != idLen || s[0] != 's' {
		return false
	}
	for _, c := range s[1:] {
		if !strings.ContainsRune(idAlphabet, c) {
			return false
		}
	}
	return true
}

// SortSubscriptions puts subscriptions in the order every Store lists them:
// oldest first, then by ID.
func SortSubscriptions(subs []Subscription) {
	slices.SortFunc(subs, func(a, b Subscription) int {
		return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(a.ID, b.ID))
	})
}

// ApplyPause is what every Store's Pause does to a subscription.
func ApplyPause(s *Subscription, reason string) { s.Paused, s.PauseReason = true, reason }

// ApplyResume is what every Store's Resume does: a paused subscription
// runs again from at; an active one is left as it is.
func ApplyResume(s *Subscription, at time.Time) {
	if s.Paused {
		s.Paused, s.PauseReason, s.ResumedAt = false, "", at
	}
}
