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

// sendMentions sends n mentions in the default channel (see sendMention)
// and returns them in order.
func sendMentions(t *testing.T, srv *slacktest.Server, n int, tag string) []mentionSent {
	t.Helper()
	out := make([]mentionSent, 0, n)
	for i := range n {
		out = append(out, sendMention(t, srv, i, tag))
	}
	return out
}

// sendMention sends the i-th mention of a burst in the default channel,
// with its own event_id. Every tenth from the fourth is delivered twice
// (Slack's retry, on the other connection); every tenth from the eighth
// has its ack lost, so the emulator retries it after the ack window on the
// other connection.
func sendMention(t *testing.T, srv *slacktest.Server, i int, tag string) mentionSent {
	t.Helper()
	text := fmt.Sprintf("%s %s%d", burstQueries[i%len(burstQueries)], tag, i)
	if i%10 == 7 {
		srv.LoseNextAck() // before the send: a quick ack would beat LoseAck
	}
	env, eventID := srv.Mention(slacktest.DefaultChannel, slacktest.DefaultUser, text)
	if i%10 == 3 {
		if _, err := srv.Redeliver(env); err != nil {
			t.Fatal(err)
		}
	}
	ms := srv.Messages(slacktest.DefaultChannel)
	for j := len(ms) - 1; j >= 0; j-- {
		if ms[j].Source == "user" && strings.HasSuffix(ms[j].Text, " "+tag+fmt.Sprint(i)) {
			return mentionSent{env: env, eventID: eventID, ts: ms[j].TS}
		}
	}
	t.Fatalf("mention %d not found in the channel", i)
	return mentionSent{}
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
// by its retry; a slash command's lost ack by nothing, as Slack never
// retries one) and no delivery claim is still held in the database: from
// then on a copy still on its way can only lose its claim, so the answers
// are final.
func settled(t *testing.T, srv *slacktest.Server, dbURL string) bool {
	t.Helper()
	if unacked := srv.Unacked(); len(unacked) != 0 {
		acked := map[string]bool{}
		never := map[string]bool{} // lost acks Slack will not retry
		for _, a := range srv.Acks() {
			acked[a.EnvelopeID] = acked[a.EnvelopeID] || !a.Lost
			never[a.EnvelopeID] = never[a.EnvelopeID] || a.Lost && a.Type == slacktest.TypeSlashCommands
		}
		retried := map[string]bool{}
		for _, d := range srv.Deliveries() {
			if d.Original != "" && acked[d.EnvelopeID] {
				retried[d.Original] = true
			}
		}
		for _, id := range unacked {
			if !retried[id] && !never[id] {
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
	waitBurstAnsweredOnce(t, srv, dbURL, sent, nil, timeout)
}

// waitBurstAnsweredOnce is waitAnsweredOnce for mentions and slash
// commands together.
func waitBurstAnsweredOnce(t *testing.T, srv *slacktest.Server, dbURL string, mentions []mentionSent, slashes []slashSent, timeout time.Duration) {
	t.Helper()
	err := srv.WaitFor(timeout, func() bool {
		return !slices.Contains(answersTo(srv, mentions), 0) && !slices.Contains(slashAnswers(srv, slashes), 0) && settled(t, srv, dbURL)
	})
	badMentions, badSlashes := 0, 0
	for i, n := range answersTo(srv, mentions) {
		if n != 1 {
			badMentions++
			if badMentions <= 10 {
				t.Errorf("mention %d (event %s) answered %d times, want 1", i, mentions[i].eventID, n)
			}
		}
	}
	for i, n := range slashAnswers(srv, slashes) {
		if n != 1 {
			badSlashes++
			if badSlashes <= 10 {
				t.Errorf("slash command %d (%s, envelope %s) answered %d times, want 1", i, slashes[i].fault, slashes[i].env, n)
			}
		}
	}
	if err != nil || badMentions+badSlashes > 0 {
		t.Fatalf("not answered exactly once: %d of %d mentions, %d of %d slash commands (wait: %v)",
			badMentions, len(mentions), badSlashes, len(slashes), err)
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
// emulator spreading envelopes over them) and one database get a burst of
// 200 commands, as users send them: 100 mentions and 100 `/paper <query>`
// slash commands, mixed. Each is answered exactly once, whatever happens
// to its envelope:
//
//   - mentions (Events API): a tenth delivered twice, a tenth retried after
//     a lost ack, each retry on the other socket, as Slack retries events;
//   - slash commands: a tenth delivered twice under the same envelope ID,
//     on the other socket (Slack does this on reconnects), half of them at
//     once and half after the answer; a tenth with the ack lost.
//
// A slash command whose ack is lost is never retried: not by Slack, so not
// by the emulator. Slack shows the user `/paper failed with the error
// "operation_timeout"`, but the bot acks before it works and answers
// through the response_url, which Slack accepts for 30 minutes whatever
// became of the ack. So the user sees Slack's error and one answer. The
// test asserts what it can see of that: no retry was made, the envelope
// stays unacknowledged (the emulator does not draw Slack's error), and
// exactly one answer came through the response_url.
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
	mentions, slashes := sendBurst(t, srv, 200, "b")
	copyAnswered(t, srv, slashes, 20*time.Second)
	waitBurstAnsweredOnce(t, srv, dbURL, mentions, slashes, 40*time.Second)
	took := time.Since(start)
	beside := probe.finish()

	perConn := map[string]map[int]int{} // envelope type -> socket -> first deliveries
	first := map[string]bool{}
	retries, elsewhere := 0, 0
	socket := map[string]map[int]int{} // mention's first envelope ID -> attempt -> socket
	for _, d := range srv.Deliveries() {
		if d.Original == "" && !first[d.EnvelopeID] {
			first[d.EnvelopeID] = true
			if perConn[d.Type] == nil {
				perConn[d.Type] = map[int]int{}
			}
			perConn[d.Type][d.Connection]++
		}
		if d.Type != slacktest.TypeEventsAPI {
			continue // a slash command's copy keeps its ID: checkSlashDeliveries
		}
		id := cmp.Or(d.Original, d.EnvelopeID)
		if socket[id] == nil {
			socket[id] = map[int]int{}
		}
		socket[id][d.Attempt] = d.Connection
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
		if a.Lost && a.Type == slacktest.TypeEventsAPI {
			lost++
		}
	}
	copies, slashLost := checkSlashDeliveries(t, srv, slashes)
	for _, typ := range []string{slacktest.TypeEventsAPI, slacktest.TypeSlashCommands} {
		if len(perConn[typ]) != 2 {
			t.Errorf("first deliveries of %s per socket %v, want both sockets used", typ, perConn[typ])
		}
	}
	if lost < 5 || slashLost < 5 {
		t.Errorf("%d mention and %d slash command acks lost, want at least 5 of the 10 asked for each (the rest raced their ack)", lost, slashLost)
	}
	for _, p := range reps {
		if p.exited() {
			t.Errorf("replica %s exited: %v", p.name, p.err)
		}
	}
	if retries < 15 || elsewhere != retries {
		t.Errorf("%d mention retries, %d of them on the other socket: want at least 15, all on the other", retries, elsewhere)
	}
	t.Logf("%d mentions and %d slash commands answered once each in %s: first deliveries per socket %v; "+
		"%d mention retries on the other socket (%d after a lost ack); %d slash commands copied to the other socket, %d with a lost ack, never retried",
		len(mentions), len(slashes), took.Round(time.Millisecond), perConn, retries, lost, copies, slashLost)
	claimP99, claims := histogramP99(t, addrs, "paperbot_shared_dedup_seconds", "claim")
	recordP99, records := histogramP99(t, addrs, "paperbot_shared_dedup_seconds", "record")
	t.Logf("the replicas' own de-duplication (histogram bounds): claim p99 <= %gs (%d claims), record p99 <= %gs (%d records)", claimP99, claims, recordP99, records)
	t.Logf("a client beside the burst: %s", beside)
}
