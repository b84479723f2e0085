package bot

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/paperbot/paperbot/bot/bottest"
	"github.com/paperbot/paperbot/bot/slacktest"
)

// burstQueries is the mix of commands a burst sends.
var burstQueries = []string{
	"protein conformations", "diffusion models for images", "graph neural networks", "show aay87f2q",
	"similar s0qz3fmb", "language model tokenizer", "reinforcement learning", "help",
	"any papers on molecular dynamics?", "has:code", "title:graph", "optimization benchmarks",
}

const (
	burstUsers    = 20
	burstChannels = 10
)

// burstResult measures one burst of burstUsers×burstChannels slash commands.
type burstResult struct {
	commands, acked, replied, duplicates, lost int
	ackP50, ackP99, replyP50, replyP99         time.Duration
}

// runBurst sends one slash command from every user in every channel at once
// (channel names carry the round, so rounds do not mix) and waits for all
// acks and replies.
func runBurst(tb testing.TB, h *harness, round int) burstResult {
	tb.Helper()
	type cmd struct{ env, user, channel string }
	cmds := make([]cmd, 0, burstUsers*burstChannels)
	before := len(h.srv.ResponseURLPosts())
	envBefore := int(counterValue(h.bot.metrics.envelopes.WithLabelValues("slash_commands")))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for u := range burstUsers {
		wg.Go(func() {
			for c := range burstChannels {
				user, channel := fmt.Sprintf("UB%02d", u), fmt.Sprintf("CB%d_%02d", round, c)
				q := burstQueries[(u*burstChannels+c)%len(burstQueries)]
				env := h.srv.SlashCommand(slacktest.CommandOpts{UserID: user, ChannelID: channel, Text: q})
				mu.Lock()
				cmds = append(cmds, cmd{env, user, channel})
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	res := burstResult{commands: len(cmds)}
	// Wait until the bot has read every envelope and finished every request
	// (a reply is recorded by the emulator before the bot's post returns).
	// This watches the bot's own counters: a condition over the emulator's
	// records would run on every change and hold up the emulator meanwhile.
	bottest.WaitUntil(tb, "burst handled", func() bool {
		return counterValue(h.bot.metrics.envelopes.WithLabelValues("slash_commands")) >= float64(envBefore+len(cmds)) &&
			gaugeValue(h.bot.metrics.inFlight) == 0
	})
	if got := len(h.srv.ResponseURLPosts()) - before; got != len(cmds) {
		tb.Logf("%d response_url posts for %d commands", got, len(cmds))
	}
	var acks, replies []time.Duration
	for _, c := range cmds {
		a, err := h.srv.WaitAck(c.env, wait)
		if err == nil && a.Err == "" {
			res.acked++
			acks = append(acks, a.Latency)
		}
		es := h.srv.Ephemerals(c.channel, c.user)
		switch {
		case len(es) == 0:
			res.lost++
		case len(es) > 1:
			res.duplicates += len(es) - 1
		}
		if len(es) > 0 && err == nil {
			res.replied++
			replies = append(replies, es[0].PostedAt.Sub(a.SentAt))
		}
	}
	res.ackP50, res.ackP99 = percentile(acks, 50), percentile(acks, 99)
	res.replyP50, res.replyP99 = percentile(replies, 50), percentile(replies, 99)
	return res
}

func percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	return s[min(max(i-1, 0), len(s)-1)]
}

// TestBurstNoLossNoDuplicates: 200 slash commands at once are all acked and
// all answered exactly once. Latency targets are measured by BenchmarkBurst.
func TestBurstNoLossNoDuplicates(t *testing.T) {
	h := startBot(t, harnessOpts{})
	r := runBurst(t, h, 0)
	if r.acked != r.commands || r.lost != 0 || r.duplicates != 0 {
		t.Fatalf("burst of %d: acked %d, lost %d, duplicates %d", r.commands, r.acked, r.lost, r.duplicates)
	}
	t.Logf("burst of %d: ack p50 %v p99 %v; reply p50 %v p99 %v", r.commands, r.ackP50, r.ackP99, r.replyP50, r.replyP99)
}

// BenchmarkBurst sends bursts of 200 slash commands (20 users × 10 channels)
// through the emulator and reports ack and command-to-reply latency.
// Targets: every envelope acked, p99 ack < 50 ms, p99 reply < 250 ms, no
// duplicate or lost reply.
//
//	go test ./bot -run '^$' -bench Burst -benchtime 5x
func BenchmarkBurst(b *testing.B) {
	h := startBot(b, harnessOpts{})
	var worst burstResult
	var ackP99, replyP99 []time.Duration
	round := 0
	for b.Loop() {
		r := runBurst(b, h, round)
		round++
		if r.acked != r.commands || r.lost != 0 || r.duplicates != 0 {
			b.Fatalf("burst of %d: acked %d, lost %d, duplicates %d", r.commands, r.acked, r.lost, r.duplicates)
		}
		worst.commands += r.commands
		worst.acked += r.acked
		ackP99 = append(ackP99, r.ackP99)
		replyP99 = append(replyP99, r.replyP99)
	}
	b.ReportMetric(float64(worst.commands)/float64(round), "commands/burst")
	b.ReportMetric(float64(worst.acked)/float64(worst.commands), "acked-fraction")
	b.ReportMetric(float64(percentile(ackP99, 50))/1e6, "p99-ack-ms")
	b.ReportMetric(float64(percentile(replyP99, 50))/1e6, "p99-reply-ms")
	b.ReportMetric(float64(slices.Max(replyP99))/1e6, "worst-p99-reply-ms")
	b.ReportMetric(0, "lost")
	b.ReportMetric(0, "duplicates")
}

func counterValue(c prometheus.Counter) float64 {
	var m dto.Metric
	_ = c.Write(&m)
	return m.GetCounter().GetValue()
}

func gaugeValue(g prometheus.Gauge) float64 {
	var m dto.Metric
	_ = g.Write(&m)
	return m.GetGauge().GetValue()
}
