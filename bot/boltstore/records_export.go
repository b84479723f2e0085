package boltstore

import (
	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/bot/memory"
)

// Records are the durable records of a store, as `paperbot store migrate`
// copies them to another store. Thread contexts and looked-up links are
// caches (kept 14 and 31 days) and are not among them.
type Records struct {
	Subscriptions []digest.Subscription
	Runs          []digest.Run
	Ledger        map[string]map[string]string // channel ID → paper ID → run key that posted it
	Lists         map[string][]memory.Saved    // memory.Owner.String() → its list
	Votes         []memory.Vote
}

// ReadRecords checks the store at path as Verify does and returns its
// records; ErrLocked while another process (paperbot serve) holds it.
func ReadRecords(path string, opts Options) (Records, error) {
	db, c, err := checkFile(path, opts.timeout())
	if err != nil {
		return Records{}, err
	}
	db.Close()
	return Records{Subscriptions: c.subs, Runs: c.runs, Ledger: c.ledger, Lists: c.lists, Votes: c.votes}, nil
}
