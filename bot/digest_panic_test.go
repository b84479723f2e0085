package bot

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/digest"
)

// panicOnRuns is a store whose run lookups panic while armed, as the bbolt
// store's did on a damaged record before it checked its file.
type panicOnRuns struct {
	digest.Store
	armed atomic.Bool
}

func (p *panicOnRuns) GetRun(ctx context.Context, key digest.RunKey) (digest.Run, error) {
	if p.armed.Load() {
		var runs []digest.Run
		_ = runs[len(key.SubscriptionID)] // index out of range
	}
	return p.Store.GetRun(ctx, key)
}

// TestSchedulerPanicLeavesTheBotAnswering: a panic in the digest scheduler
// is recovered, logged and counted in paperbot_digest_panics_total, and the
// bot still answers a search afterwards.
func TestSchedulerPanicLeavesTheBotAnswering(t *testing.T) {
	ix := testIndex(t)
	bolt := memoryStore(t)
	store := &panicOnRuns{Store: bolt}
	b := launchDigestBot(t, bolt, store, ix, digest.Config{}, harnessOpts{search: ix})
	h := b.harness
	b.subscribe("U1", "C1", "graph neural networks at 09:00 tz UTC daily")

	store.armed.Store(true)
	b.tickAt(monday0700UTC.Add(2*time.Hour + time.Minute))
	if got := metricValue(t, h.bot, "paperbot_digest_panics_total", ""); got != 1 {
		t.Fatalf("paperbot_digest_panics_total = %v, want 1\nlogs:\n%s", got, h.logs)
	}
	if !strings.Contains(h.logs.String(), "recovered from a panic") {
		t.Errorf("the panic is not logged:\n%s", h.logs)
	}

	n := h.EphemeralCount("C2", "U2")
	h.Slash("U2", "C2", "kv cache compression")
	if reply := h.WaitEphemeral("C2", "U2", n+1); !strings.Contains(string(reply.Blocks), "LaCache") {
		t.Fatalf("the bot stopped answering after the scheduler panicked: %s", reply.Text)
	}
}
