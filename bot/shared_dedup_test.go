package bot

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/bottest"
)

// flakyDedup is an in-memory SharedDedup whose database can be taken down:
// while down, every call fails as a lost connection would.
type flakyDedup struct {
	mu       sync.Mutex
	down     bool
	failures int             // calls refused while down
	handled  map[string]bool // key -> handled (false: held)
}

var errDatabaseDown = errors.New("dial tcp 127.0.0.1:5432: connect: connection refused")

func (d *flakyDedup) setDown(down bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.down = down
}

func (d *flakyDedup) failed() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.failures
}

func (d *flakyDedup) ClaimDeliveries(_ context.Context, keys []string, _ time.Duration) (bool, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.down {
		d.failures++
		return false, errDatabaseDown
	}
	for _, k := range keys {
		if _, ok := d.handled[k]; ok {
			return false, nil
		}
	}
	for _, k := range keys {
		d.handled[k] = false
	}
	return true, nil
}

func (d *flakyDedup) FinishDeliveries(_ context.Context, keys []string, handled bool, _ time.Duration) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.down {
		d.failures++
		return errDatabaseDown
	}
	for _, k := range keys {
		if handled {
			d.handled[k] = true
		} else {
			delete(d.handled, k)
		}
	}
	return nil
}

func (d *flakyDedup) isHandled(key string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.handled[key]
}

// A mention that arrives while the shared de-duplicator's database is down
// is not answered until the database is back, and then once.
func TestSharedDedupHoldsDeliveryUntilDatabaseAnswers(t *testing.T) {
	d := &flakyDedup{down: true, handled: map[string]bool{}}
	h := startBot(t, harnessOpts{bot: []Option{WithSharedDedup(d)}})
	env, eventID := h.srv.Mention("C1", "U1", "protein conformations")
	h.WaitAck(env)
	bottest.WaitUntil(t, "three failed claims", func() bool { return d.failed() >= 3 })
	ts := h.srv.Messages("C1")[0].TS
	if n := len(bottest.BotMessages(h.srv.Thread("C1", ts))); n != 0 {
		t.Fatalf("%d answers while the database was down, want none yet", n)
	}
	d.setDown(false)
	h.WaitThread("C1", ts, 1)
	bottest.WaitUntil(t, "the delivery recorded as handled", func() bool { return d.isHandled("event:" + eventID) })
	// Slack's retry (as on another replica) is a duplicate now.
	h.WaitAck(mustRedeliver(t, h, env))
	h.Sentinel("U9")
	if n := len(bottest.BotMessages(h.srv.Thread("C1", ts))); n != 1 {
		t.Fatalf("%d answers, want 1", n)
	}
	if got := metricValue(t, h.bot, "paperbot_shared_dedup_seconds", "op=claim"); got < 2 {
		t.Errorf("%v claims timed, want the mention's and the sentinel's", got)
	}
	if !strings.Contains(h.logs.String(), "shared de-duplication failed; holding the delivery and retrying") {
		t.Errorf("the database failure was not logged:\n%s", h.logs)
	}
}

// When the database stays down past Config.SharedWait, the delivery is
// dropped unanswered (and logged): answering without the claim could answer
// twice, should another replica get Slack's retry.
func TestSharedDedupFailsClosed(t *testing.T) {
	d := &flakyDedup{down: true, handled: map[string]bool{}}
	h := startBot(t, harnessOpts{
		config: func(c *Config) { c.SharedWait = 300 * time.Millisecond },
		bot:    []Option{WithSharedDedup(d)},
	})
	env, _ := h.srv.Mention("C1", "U1", "protein conformations")
	h.WaitAck(env)
	bottest.WaitUntil(t, "the drop logged", func() bool {
		return strings.Contains(h.logs.String(), "delivery dropped unanswered: shared de-duplication unavailable")
	})
	ts := h.srv.Messages("C1")[0].TS
	if n := len(bottest.BotMessages(h.srv.Thread("C1", ts))); n != 0 {
		t.Fatalf("%d answers without the shared claim, want none", n)
	}
	if got := metricValue(t, h.bot, "paperbot_errors_total", "database"); got < 2 || int(got) != d.failed() {
		t.Errorf("database errors counted %v, want every failed attempt (%d), at least 2", got, d.failed())
	}
	// Once the database is back, Slack's retry is answered.
	d.setDown(false)
	h.WaitAck(mustRedeliver(t, h, env))
	h.WaitThread("C1", ts, 1)
}

// An answered delivery whose record fails is recorded once the database
// is back, so a later retry stays a duplicate.
func TestSharedDedupRetriesTheRecord(t *testing.T) {
	d := &flakyDedup{handled: map[string]bool{}}
	h := startBot(t, harnessOpts{bot: []Option{WithSharedDedup(d)}})
	h.srv.Slow("chat.postMessage", 200*time.Millisecond)
	env, eventID := h.srv.Mention("C1", "U1", "protein conformations")
	h.WaitAck(env)
	// Claimed, answer on its way: the database goes down before the record.
	bottest.WaitUntil(t, "the claim", func() bool {
		d.mu.Lock()
		defer d.mu.Unlock()
		_, ok := d.handled["event:"+eventID]
		return ok
	})
	d.setDown(true)
	ts := h.srv.Messages("C1")[0].TS
	h.WaitThread("C1", ts, 1)
	bottest.WaitUntil(t, "a failed record", func() bool { return d.failed() >= 1 })
	d.setDown(false)
	bottest.WaitUntil(t, "the delivery recorded as handled", func() bool { return d.isHandled("event:" + eventID) })
}

func mustRedeliver(t *testing.T, h *harness, env string) string {
	t.Helper()
	id, err := h.srv.Redeliver(env)
	if err != nil {
		t.Fatal(err)
	}
	return id
}
