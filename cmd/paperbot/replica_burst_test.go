package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/paperbot/paperbot/bot/bottest"
	"github.com/paperbot/paperbot/bot/digest/digesttest"
	"github.com/paperbot/paperbot/bot/pgstore"
	"github.com/paperbot/paperbot/bot/pgstore/pgtest"
	"github.com/paperbot/paperbot/bot/slacktest"
)

// burstQueries are what the burst asks, in turn.
var burstQueries = []string{"kv cache compression", "protein conformations", "diffusion models for video",
	"attention sinks", "graph neural networks", "speculative decoding", "reward models", "sparse autoencoders"}

// mentionSent is one command of a burst: its envelope and the ts of the
// user's message, under which the answer is threaded.
type mentionSent struct{ env, eventID, ts string }

// sendMentions sends n mentions in the default channel, each with its own
// event_id, and returns them in order. Every tenth from the fourth is
// delivered twice (Slack's retry, on the other connection); every tenth
// from the eighth has its ack lost, so the emulator retries it after the
// ack window on the other connection.
func sendMentions(t *testing.T, srv *slacktest.Server, n int, tag string) []mentionSent {
	t.Helper()
	out := make([]mentionSent, 0, n)
	for i := range n {
		text := fmt.Sprintf("%s %s%d", burstQueries[i%len(burstQueries)], tag, i)
		env, eventID := srv.Mention(slacktest.DefaultChannel, slacktest.DefaultUser, text)
		switch i % 10 {
		case 3:
			if _, err := srv.Redeliver(env); err != nil {
				t.Fatal(err)
			}
		case 7:
			srv.LoseAck(env)
		}
		ms := srv.Messages(slacktest.DefaultChannel)
		for j := len(ms) - 1; j >= 0; j-- {
			if ms[j].Source == "user" && strings.HasSuffix(ms[j].Text, " "+tag+fmt.Sprint(i)) {
				out = append(out, mentionSent{env: env, eventID: eventID, ts: ms[j].TS})
				break
			}
		}
		if len(out) != i+1 {
			t.Fatalf("mention %d not found in the channel", i)
		}
	}
	return out
}

// answersTo counts the bot's replies in each mention's thread.
func answersTo(srv *slacktest.Server, sent []mentionSent) []int {
	counts := make([]int, len(sent))
	for i, m := range sent {
		counts[i] = len(bottest.BotMessages(srv.Thread(slacktest.DefaultChannel, m.ts)))
	}
	return counts
}

// settled reports whether every envelope has been acknowledged (a lost ack
// by its retry) and no delivery claim is still held in the database: from
// then on a copy still on its way can only lose its claim, so the answers
// are final.
func settled(t *testing.T, srv *slacktest.Server, dbURL string) bool {
	t.Helper()
	if unacked := srv.Unacked(); len(unacked) != 0 {
		acked := map[string]bool{}
		for _, a := range srv.Acks() {
			acked[a.EnvelopeID] = acked[a.EnvelopeID] || !a.Lost
		}
		retried := map[string]bool{}
		for _, d := range srv.Deliveries() {
			if d.Original != "" && acked[d.EnvelopeID] {
				retried[d.Original] = true
			}
		}
		for _, id := range unacked {
			if !retried[id] {
				return false
			}
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return false // the database may be restarting
	}
	defer conn.Close(ctx)
	var held int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM deliveries WHERE NOT handled").Scan(&held); err != nil {
		return false
	}
	return held == 0
}

// waitAnsweredOnce waits until every mention has an answer and the
// deliveries have settled, then fails the test for any mention not
// answered exactly once.
func waitAnsweredOnce(t *testing.T, srv *slacktest.Server, dbURL string, sent []mentionSent, timeout time.Duration) {
	t.Helper()
	err := srv.WaitFor(timeout, func() bool {
		return !slices.Contains(answersTo(srv, sent), 0) && settled(t, srv, dbURL)
	})
	counts := answersTo(srv, sent)
	bad := 0
	for i, n := range counts {
		if n != 1 {
			bad++
			if bad <= 10 {
				t.Errorf("mention %d (event %s) answered %d times, want 1", i, sent[i].eventID, n)
			}
		}
	}
	if err != nil || bad > 0 {
		t.Fatalf("%d of %d mentions not answered exactly once (wait: %v)", bad, len(sent), err)
	}
}

// latencyProbe claims deliveries and digest runs in the database beside
// the replicas while a burst runs, timing each call.
type latencyProbe struct {
	stop   context.CancelFunc
	done   chan struct{}
	mu     sync.Mutex
	dedup  []time.Duration // claim and record of one delivery
	claims []time.Duration // digest run claims
}

func startLatencyProbe(t *testing.T, dbURL string) *latencyProbe {
	t.Helper()
	db, err := pgstore.Open(t.Context(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	p := &latencyProbe{stop: cancel, done: make(chan struct{})}
	go func() {
		defer close(p.done)
		defer db.Close()
		for i := 0; ctx.Err() == nil; i++ {
			key := fmt.Sprintf("probe:%d", i)
			t0 := time.Now()
			won, err := db.ClaimDeliveries(ctx, []string{key}, time.Minute)
			if err == nil && won {
				err = db.FinishDeliveries(ctx, []string{key}, true, time.Minute)
			}
			t1 := time.Now()
			_, _, cerr := db.Claim(ctx, digesttest.Claim(digesttest.Key(subID(i), 0), "CPROBE"))
			t2 := time.Now()
			if ctx.Err() != nil {
				return
			}
			p.mu.Lock()
			if err == nil {
				p.dedup = append(p.dedup, t1.Sub(t0))
			}
			if cerr == nil {
				p.claims = append(p.claims, t2.Sub(t1))
			}
			p.mu.Unlock()
			time.Sleep(5 * time.Millisecond) // a steady trickle, not a load of its own
		}
	}()
	return p
}

// finish stops the probe and returns the p50 and p99 of each series.
func (p *latencyProbe) finish() (dedup, claims [2]time.Duration, n int) {
	p.stop()
	<-p.done
	p.mu.Lock()
	defer p.mu.Unlock()
	return quantiles(p.dedup), quantiles(p.claims), len(p.dedup)
}

func quantiles(ds []time.Duration) [2]time.Duration {
	if len(ds) == 0 {
		return [2]time.Duration{}
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	at := func(q float64) time.Duration { return s[min(len(s)-1, int(q*float64(len(s))))] }
	return [2]time.Duration{at(0.50), at(0.99)}
}

// Two `paperbot serve` processes on one Slack app (one socket each, the
// emulator spreading envelopes over them) and one database: a burst of 200
// mentions, a tenth of them delivered twice and a tenth retried after a
// lost ack, on the other connection, is answered exactly once per mention.
func TestReplicasAnswerBurstOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two serve processes")
	}
	dbURL, _ := pgtest.Fresh(t)
	srv := slacktest.NewServer(slacktest.WithSpread(), slacktest.WithRedelivery(time.Second, 2))
	t.Cleanup(srv.Close)
	srv.SetChannel(slacktest.DefaultChannel, slacktest.Channel{Member: true})
	env := replicaEnv(srv, dbURL, 5*time.Second)
	reps := []*replicaProc{startReplica(t, "a", env), startReplica(t, "b", env)}
	waitSockets(t, srv, 2)

	probe := startLatencyProbe(t, dbURL)
	start := time.Now()
	sent := sendMentions(t, srv, 200, "b")
	waitAnsweredOnce(t, srv, dbURL, sent, 40*time.Second)
	took := time.Since(start)
	dedup, claims, n := probe.finish()

	perConn := map[int]int{}
	retries, elsewhere := 0, 0
	first := map[string]int{} // envelope ID -> socket of its first write
	for _, d := range srv.Deliveries() {
		if d.Attempt == 0 {
			first[d.EnvelopeID] = d.Connection
			perConn[d.Connection]++
			continue
		}
		retries++
		if first[d.Original] != d.Connection {
			elsewhere++
		}
	}
	lost := 0
	for _, a := range srv.Acks() {
		if a.Lost {
			lost++
		}
	}
	if len(perConn) != 2 {
		t.Errorf("first deliveries per socket %v, want both sockets used", perConn)
	}
	if lost < 10 {
		t.Errorf("%d acks lost, want at least 10 of the 20 asked for (the rest raced their ack)", lost)
	}
	for _, p := range reps {
		if p.exited() {
			t.Errorf("replica %s exited: %v", p.name, p.err)
		}
	}
	if retries < 30 || elsewhere != retries {
		t.Errorf("%d retries, %d of them on the other socket: want at least 30, all on the other", retries, elsewhere)
	}
	t.Logf("200 mentions answered once each in %s: first deliveries per socket %v, %d retries on the other socket (%d after a lost ack)", took.Round(time.Millisecond), perConn, retries, lost)
	t.Logf("beside the burst, %d probes: delivery claim+record p50 %s p99 %s; digest run claim p50 %s p99 %s",
		n, dedup[0].Round(10*time.Microsecond), dedup[1].Round(10*time.Microsecond), claims[0].Round(10*time.Microsecond), claims[1].Round(10*time.Microsecond))
}
