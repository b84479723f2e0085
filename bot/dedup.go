package bot

import (
	"container/heap"
	"sync"
	"time"
)

// dedup remembers which deliveries (event_id, envelope, click) have been
// handled, so a redelivery never produces a second reply, while a delivery
// whose first attempt failed before replying is processed again.
//
// Keys are claimed before work starts and finished afterwards. A finished key
// is remembered until its keep time passes; memory is bounded by max: beyond
// it the keys closest to expiry are forgotten first. Claimed (in-flight) keys
// are never forgotten. All methods are safe for concurrent use.
type dedup struct {
	mu      sync.Mutex
	now     func() time.Time
	max     int
	entries map[string]*dedupEntry
	expiry  expiryHeap // finished entries, earliest expiry first
}

type dedupEntry struct {
	key     string
	pending bool
	done    chan struct{} // closed when a pending claim finishes (shared by its keys)
	expires time.Time
	index   int // position in expiry heap, -1 while pending
}

// claimResult is the outcome of claim.
type claimResult int

const (
	claimed   claimResult = iota // caller owns the key and must call finish
	duplicate                    // already handled: drop the delivery
	busy                         // another worker holds it: wait, then claim again
)

func newDedup(max int, now func() time.Time) *dedup {
	if now == nil {
		now = time.Now
	}
	if max <= 0 {
		max = 100_000
	}
	return &dedup{now: now, max: max, entries: map[string]*dedupEntry{}}
}

// dedupKey is one identity of a delivery and how long to remember it once
// handled. A delivery may have several (event_id and envelope_id); it is a
// duplicate when any of them is.
type dedupKey struct {
	key  string
	keep time.Duration
}

// claim tries to take all keys for processing, atomically. It returns
// duplicate when any key was handled, busy (with a channel closed when the
// holder finishes; claim again then) when any is in flight, and otherwise
// claimed: the caller must call finish with the same keys.
func (d *dedup) claim(keys []dedupKey) (res claimResult, wait <-chan struct{}) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.expire()
	for _, k := range keys {
		if e, ok := d.entries[k.key]; ok {
			if e.pending {
				return busy, e.done
			}
			return duplicate, nil
		}
	}
	done := make(chan struct{})
	for _, k := range keys {
		d.entries[k.key] = &dedupEntry{key: k.key, pending: true, done: done, index: -1}
	}
	return claimed, nil
}

// finish ends a claim. handled=true remembers each key for its keep time;
// handled=false forgets them, so that a redelivery is processed again.
func (d *dedup) finish(keys []dedupKey, handled bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	var done chan struct{}
	for _, k := range keys {
		e, ok := d.entries[k.key]
		if !ok || !e.pending {
			continue
		}
		e.pending = false
		done = e.done
		if !handled {
			delete(d.entries, k.key)
			continue
		}
		e.expires = d.now().Add(k.keep)
		heap.Push(&d.expiry, e)
	}
	if done != nil {
		close(done)
	}
	for d.expiry.Len() > 0 && len(d.entries) > d.max {
		old := heap.Pop(&d.expiry).(*dedupEntry)
		delete(d.entries, old.key)
	}
}

// len reports how many keys are remembered or in flight.
func (d *dedup) len() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.expire()
	return len(d.entries)
}

// expire forgets finished keys whose keep time has passed. d.mu is held.
func (d *dedup) expire() {
	now := d.now()
	for d.expiry.Len() > 0 && !d.expiry[0].expires.After(now) {
		old := heap.Pop(&d.expiry).(*dedupEntry)
		delete(d.entries, old.key)
	}
}

// expiryHeap orders finished entries by expiry.
type expiryHeap []*dedupEntry

func (h expiryHeap) Len() int           { return len(h) }
func (h expiryHeap) Less(i, j int) bool { return h[i].expires.Before(h[j].expires) }
func (h expiryHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index = i
	h[j].index = j
}
func (h *expiryHeap) Push(x any) {
	e := x.(*dedupEntry)
	e.index = len(*h)
	*h = append(*h, e)
}
func (h *expiryHeap) Pop() any {
	old := *h
	n := len(old)
	e := old[n-1]
	old[n-1] = nil
	e.index = -1
	*h = old[:n-1]
	return e
}
