package pgstore_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A delivery seen by two replicas is handled by one; one released unhandled
// is taken by the next; one whose replica died is taken over after its hold.
func TestDeliveriesAcrossReplicas(t *testing.T) {
	u := freshDB(t)
	a, b := open(t, u), open(t, u)
	ctx := context.Background()
	keys := []string{"env:1", "event:Ev1"}

	won, err := a.ClaimDeliveries(ctx, keys, time.Minute)
	if err != nil || !won {
		t.Fatalf("first claim: %v, %v", won, err)
	}
	if won, err := b.ClaimDeliveries(ctx, []string{"env:2", "event:Ev1"}, time.Minute); err != nil || won {
		t.Fatalf("retry on another replica while held: won=%v err=%v", won, err)
	}
	// The losing claim took nothing: env:2 alone is still free.
	if won, _ := b.ClaimDeliveries(ctx, []string{"env:2"}, time.Minute); !won {
		t.Fatal("a lost claim kept some of its keys")
	}
	if err := a.FinishDeliveries(ctx, keys, false, time.Hour); err != nil {
		t.Fatal(err)
	}
	if won, _ := b.ClaimDeliveries(ctx, []string{"env:3", "event:Ev1"}, time.Minute); !won {
		t.Fatal("a delivery released unhandled was not taken by the next redelivery")
	}
	if err := b.FinishDeliveries(ctx, []string{"env:3", "event:Ev1"}, true, time.Hour); err != nil {
		t.Fatal(err)
	}
	if won, _ := a.ClaimDeliveries(ctx, []string{"env:4", "event:Ev1"}, time.Minute); won {
		t.Fatal("a handled delivery was handled again")
	}

	// A replica dies holding Ev2 for 300 ms: a redelivery after that is taken.
	if won, _ := a.ClaimDeliveries(ctx, []string{"event:Ev2"}, 300*time.Millisecond); !won {
		t.Fatal("claim Ev2")
	}
	if won, _ := b.ClaimDeliveries(ctx, []string{"event:Ev2"}, time.Minute); won {
		t.Fatal("Ev2 taken while still held")
	}
	// Wait for the hold to run out: polled, not slept, with a bound.
	taken := false
	for deadline := time.Now().Add(5 * time.Second); !taken && time.Now().Before(deadline); {
		if taken, _ = b.ClaimDeliveries(ctx, []string{"event:Ev2"}, time.Minute); !taken {
			time.Sleep(20 * time.Millisecond)
		}
	}
	if !taken {
		t.Fatal("Ev2 not taken over after its holder's hold ran out")
	}
}

// Of many replicas receiving the same event at once, exactly one claims it.
func TestDeliveryClaimedOnce(t *testing.T) {
	u := freshDB(t)
	a, b := open(t, u), open(t, u)
	ctx := context.Background()
	for i := range 20 {
		var wins atomic.Int32
		var wg sync.WaitGroup
		for r := range 6 {
			s := a
			if r%2 == 1 {
				s = b
			}
			wg.Go(func() {
				won, err := s.ClaimDeliveries(ctx, []string{"env:" + string(rune('a'+r)) + string(rune('a'+i)), "event:" + string(rune('A'+i))}, time.Minute)
				if err != nil {
					t.Error(err)
				}
				if won {
					wins.Add(1)
				}
			})
		}
		wg.Wait()
		if wins.Load() != 1 {
			t.Fatalf("event %d claimed %d times, want once", i, wins.Load())
		}
	}
}
