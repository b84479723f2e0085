package memory

import (
	"fmt"
	"strings"

	"github.com/paperbot/paperbot/fault"
)

// Owner is whose reading list it is: a user's own or a channel's.
type Owner struct {
	// Channel is true for a channel's list; ID is then a channel ID, else a user ID.
	Channel bool
	ID      string
}

// User is the personal list of user ID id.
func User(id string) Owner { return Owner{ID: id} }

// Channel is the shared list of channel ID id.
func Channel(id string) Owner { return Owner{Channel: true, ID: id} }

// String is the owner as stored: "user:U123" or "channel:C123".
func (o Owner) String() string {
	if o.Channel {
		return "channel:" + o.ID
	}
	return "user:" + o.ID
}

// Validate refuses an owner without an ID or with a separator in it.
func (o Owner) Validate() error {
	if o.ID == "" || strings.ContainsAny(o.ID, ": \x00") {
		return fault.Errorf("list owner", fault.Invalid, "%q is not a user or channel ID", o.ID)
	}
	return nil
}

// ParseOwner reads an Owner from its String form.
func ParseOwner(s string) (Owner, error) {
	kind, id, _ := strings.Cut(s, ":")
	var o Owner
	switch kind {
	case "user":
		o = User(id)
	case "channel":
		o = Channel(id)
	default:
		return Owner{}, fmt.Errorf("list owner %q is neither user: nor channel:", s)
	}
	return o, o.Validate()
}
