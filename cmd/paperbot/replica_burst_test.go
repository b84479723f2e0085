package main

import (
	"bufio"
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"net"
	"net/http"
	"slices"
	"strconv"
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
	stop context.CancelFunc
	done chan struct{}
	mu   sync.Mutex
	// delivery claim, delivery record, digest run claim
	claim, record, digestClaim []time.Duration
}

func startLatencyProbe(t *testing.T, dbURL string) *latencyProbe {
	t.Helper()
	db, err := pgstore.Open(t.Context(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	p := &latencyProbe{stop: cancel, done: make(chan struct{})}
	timed := func(into *[]time.Duration, f func() error) {
		start := time.Now()
		if err := f(); err == nil && ctx.Err() == nil {
			p.mu.Lock()
			*into = append(*into, time.Since(start))
			p.mu.Unlock()
		}
	}
	go func() {
		defer close(p.done)
		defer db.Close()
		for i := 0; ctx.Err() == nil; i++ {
			keys := []string{fmt.Sprintf("probe:%d", i)}
			timed(&p.claim, func() error { _, err := db.ClaimDeliveries(ctx, keys, time.Minute); return err })
			timed(&p.record, func() error { return db.FinishDeliveries(ctx, keys, true, time.Minute) })
			timed(&p.digestClaim, func() error {
				_, _, err := db.Claim(ctx, digesttest.Claim(digesttest.Key(subID(i), 0), "CPROBE"))
				return err
			})
			time.Sleep(2 * time.Millisecond) // a steady trickle, not a load of its own
		}
	}()
	return p
}

// finish stops the probe and describes the p50 and p99 of each call.
func (p *latencyProbe) finish() string {
	p.stop()
	<-p.done
	p.mu.Lock()
	defer p.mu.Unlock()
	var b strings.Builder
	for _, s := range []struct {
		name string
		ds   []time.Duration
	}{{"delivery claim", p.claim}, {"delivery record", p.record}, {"digest run claim", p.digestClaim}} {
		q := quantiles(s.ds)
		fmt.Fprintf(&b, "%s p50 %s p99 %s (%d calls); ", s.name, q[0].Round(10*time.Microsecond), q[1].Round(10*time.Microsecond), len(s.ds))
	}
	return strings.TrimSuffix(b.String(), "; ")
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

// freeAddr is a loopback address with a port nobody listened on just now.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// histogramP99 reads the histogram name{op="op"} from each replica's
// /metrics and returns the bucket bound under which 99% of the calls of
// all of them fell, and the number of calls.
func histogramP99(t *testing.T, addrs []string, name, op string) (float64, int) {
	t.Helper()
	buckets := map[float64]float64{} // le -> cumulative count, summed over replicas
	var count float64
	prefix := name + `_bucket{op="` + op + `",le="`
	for _, addr := range addrs {
		resp, err := http.Get("http://" + addr + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			line := sc.Text()
			if rest, ok := strings.CutPrefix(line, prefix); ok {
				le, val, _ := strings.Cut(rest, `"} `)
				bound, _ := strconv.ParseFloat(le, 64)
				n, _ := strconv.ParseFloat(val, 64)
				buckets[bound] += n
			}
			if rest, ok := strings.CutPrefix(line, name+`_count{op="`+op+`"} `); ok {
				n, _ := strconv.ParseFloat(rest, 64)
				count += n
			}
		}
		resp.Body.Close()
	}
	bounds := slices.Sorted(maps.Keys(buckets))
	for _, b := range bounds {
		if buckets[b] >= 0.99*count {
			return b, int(count)
		}
	}
	return math.Inf(1), int(count)
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
	var reps []*replicaProc
	var addrs []string
	for _, name := range []string{"a", "b"} {
		addrs = append(addrs, freeAddr(t))
		env["PAPERBOT_HTTP_ADDR"] = addrs[len(addrs)-1]
		reps = append(reps, startReplica(t, name, env))
	}
	waitSockets(t, srv, 2)

	probe := startLatencyProbe(t, dbURL)
	start := time.Now()
	sent := sendMentions(t, srv, 200, "b")
	waitAnsweredOnce(t, srv, dbURL, sent, 40*time.Second)
	took := time.Since(start)
	beside := probe.finish()

	perConn := map[int]int{}
	retries, elsewhere := 0, 0
	socket := map[string]map[int]int{} // first envelope ID -> attempt -> socket
	for _, d := range srv.Deliveries() {
		first := cmp.Or(d.Original, d.EnvelopeID)
		if socket[first] == nil {
			socket[first] = map[int]int{}
		}
		socket[first][d.Attempt] = d.Connection
		if d.Attempt == 0 {
			perConn[d.Connection]++
		}
	}
	for _, attempts := range socket {
		for n, conn := range attempts {
			if n > 0 {
				retries++
				if conn != attempts[n-1] {
					elsewhere++
				}
			}
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
	claimP99, claims := histogramP99(t, addrs, "paperbot_shared_dedup_seconds", "claim")
	recordP99, records := histogramP99(t, addrs, "paperbot_shared_dedup_seconds", "record")
	t.Logf("the replicas' own de-duplication (histogram bounds): claim p99 <= %gs (%d claims), record p99 <= %gs (%d records)", claimP99, claims, recordP99, records)
	t.Logf("a client beside the burst: %s", beside)
}
