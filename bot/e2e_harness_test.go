package bot

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/paperbot/paperbot/bot/slacktest"
	"github.com/paperbot/paperbot/search"
)

// wait bounds every wait on the emulator; generous for a loaded CI machine.
const wait = 10 * time.Second

var (
	indexOnce sync.Once
	seedIndex *search.Index
	indexErr  error
)

// testIndex is a real in-memory index of the seed corpus, shared by tests.
func testIndex(t testing.TB) *search.Index {
	t.Helper()
	seedPapers(t)
	indexOnce.Do(func() { seedIndex, indexErr = search.Open(context.Background(), seedCorpus, search.Options{}) })
	if indexErr != nil {
		t.Fatalf("open index: %v", indexErr)
	}
	return seedIndex
}

// harness runs the real Bot against a slacktest Server.
type harness struct {
	t      testing.TB
	srv    *slacktest.Server
	bot    *Bot
	cancel context.CancelFunc
	done   chan error
	logs   *syncBuffer
}

type harnessOpts struct {
	srv    []slacktest.Option
	config func(*Config)
	bot    []Option
	search Searcher
}

// startBot starts a Bot against a fresh emulator and waits until it is ready.
func startBot(t testing.TB, o harnessOpts) *harness {
	t.Helper()
	h := newHarness(t, o)
	h.run()
	if err := h.srv.WaitConnected(1, wait); err != nil {
		t.Fatalf("bot never connected: %v\nlogs:\n%s", err, h.logs)
	}
	waitUntil(t, "bot ready", h.bot.Ready)
	return h
}

// waitUntil polls cond (for state outside the emulator, which cannot wake
// WaitFor) until it holds or the deadline passes.
func waitUntil(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(wait)
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		<-tick.C
	}
}

func newHarness(t testing.TB, o harnessOpts) *harness {
	t.Helper()
	srv := slacktest.NewServer(o.srv...)
	t.Cleanup(srv.Close)
	cfg := Config{BotToken: srv.BotToken(), AppToken: srv.AppToken(), APIURL: srv.APIURL(),
		Workers: 4, ShutdownGrace: 5 * time.Second, HTTPTimeout: 5 * time.Second}
	if o.config != nil {
		o.config(&cfg)
	}
	s := o.search
	if s == nil {
		s = testIndex(t)
	}
	logs := &syncBuffer{}
	level := slog.LevelInfo
	if os.Getenv("PAPERBOT_TEST_DEBUG") != "" {
		level = slog.LevelDebug
	}
	var w io.Writer = logs
	if os.Getenv("PAPERBOT_TEST_DEBUG") != "" {
		w = io.MultiWriter(logs, os.Stderr)
	}
	b, err := New(cfg, s, slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level})), o.bot...)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return &harness{t: t, srv: srv, bot: b, logs: logs, done: make(chan error, 1)}
}

// run starts Bot.Run; the test's cleanup stops it.
func (h *harness) run() {
	ctx, cancel := context.WithCancel(context.Background())
	h.cancel = cancel
	go func() { h.done <- h.bot.Run(ctx) }()
	h.t.Cleanup(func() { h.stop() })
}

// stop cancels Run and returns its result (once; later calls return nil).
func (h *harness) stop() error {
	if h.cancel == nil {
		return nil
	}
	h.cancel()
	h.cancel = nil
	select {
	case err := <-h.done:
		return err
	case <-time.After(wait + h.bot.cfg.ShutdownGrace):
		h.t.Errorf("Run did not return after cancel")
		return errors.New("Run did not return")
	}
}

// slash runs a slash command and waits for its ack.
func (h *harness) slash(user, channel, text string) string {
	h.t.Helper()
	env := h.srv.SlashCommand(slacktest.CommandOpts{UserID: user, ChannelID: channel, Text: text})
	h.waitAck(env)
	return env
}

func (h *harness) waitAck(env string) slacktest.Ack {
	h.t.Helper()
	a, err := h.srv.WaitAck(env, wait)
	if err != nil {
		h.t.Fatalf("%v", err)
	}
	if a.Err != "" {
		h.t.Fatalf("ack of %s refused: %s", env, a.Err)
	}
	return a
}

// ephemeralCount counts live ephemerals user sees in channel.
func (h *harness) ephemeralCount(channel, user string) int {
	return len(h.srv.Ephemerals(channel, user))
}

// waitEphemeral waits for the n-th (1-based) live ephemeral of user in channel.
func (h *harness) waitEphemeral(channel, user string, n int) slacktest.Message {
	h.t.Helper()
	var m slacktest.Message
	err := h.srv.WaitFor(wait, func() bool {
		es := h.srv.Ephemerals(channel, user)
		if len(es) >= n {
			m = es[n-1]
			return true
		}
		return false
	})
	if err != nil {
		h.t.Fatalf("no ephemeral #%d for %s in %s: %v (have %d)\nlogs:\n%s", n, user, channel, err, h.ephemeralCount(channel, user), h.logs)
	}
	return m
}

// waitThread waits for n bot replies in the thread under ts.
// waitReplaced waits until the user's only ephemeral in channel has been
// replaced edits times (paging replaces it through response_url) and
// returns it.
func (h *harness) waitReplaced(channel, user string, edits int) slacktest.Message {
	h.t.Helper()
	var m slacktest.Message
	if err := h.srv.WaitFor(wait, func() bool {
		es := h.srv.Ephemerals(channel, user)
		if len(es) != 1 {
			return false
		}
		m = es[0]
		return m.Edits == edits
	}); err != nil {
		h.t.Fatalf("ephemeral not replaced %d times: %v (ephemerals: %d)", edits, err, h.ephemeralCount(channel, user))
	}
	return m
}

func (h *harness) waitThread(channel, ts string, n int) []slacktest.Message {
	h.t.Helper()
	var replies []slacktest.Message
	err := h.srv.WaitFor(wait, func() bool {
		replies = botMessages(h.srv.Thread(channel, ts))
		return len(replies) >= n
	})
	if err != nil {
		h.t.Fatalf("want %d replies in thread %s, have %d: %v\nlogs:\n%s", n, ts, len(replies), err, h.logs)
	}
	return replies
}

// sentinel sends a DM and waits for its answer: once it is there, every
// envelope pushed before it has been read (they are handled in order).
func (h *harness) sentinel(user string) {
	h.t.Helper()
	before := len(botMessages(h.srv.Messages(h.srv.DMChannel(user))))
	h.srv.DirectMessage(user, "help")
	if err := h.srv.WaitFor(wait, func() bool {
		return len(botMessages(h.srv.Messages(h.srv.DMChannel(user)))) > before
	}); err != nil {
		h.t.Fatalf("sentinel DM not answered: %v", err)
	}
}

// botMessages keeps the messages the bot posted (not simulated users' or
// other bots').
func botMessages(ms []slacktest.Message) []slacktest.Message {
	var out []slacktest.Message
	for _, m := range ms {
		if m.Source != "user" {
			out = append(out, m)
		}
	}
	return out
}

// blockTexts decodes a recorded message's blocks and returns every text.
func blockTexts(t testing.TB, m slacktest.Message) string {
	t.Helper()
	var blocks []map[string]any
	if len(m.Blocks) > 0 {
		if err := json.Unmarshal(m.Blocks, &blocks); err != nil {
			t.Fatalf("blocks: %v", err)
		}
	}
	texts := []string{m.Text}
	collectText(blocks, &texts)
	return strings.Join(texts, "\n")
}

// hasButton reports whether a recorded message has a button actionID.
func hasButton(t testing.TB, m slacktest.Message, actionID string) bool {
	t.Helper()
	return strings.Contains(string(m.Blocks), `"action_id":"`+actionID+`"`)
}

// metricValue reads a counter or gauge (summed over labels matching
// labelSubstr) from the bot's registry.
func metricValue(t testing.TB, b *Bot, name, labelSubstr string) float64 {
	t.Helper()
	mfs, err := b.metrics.registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			lbl := ""
			for _, lp := range m.GetLabel() {
				lbl += lp.GetName() + "=" + lp.GetValue() + ","
			}
			if !strings.Contains(lbl, labelSubstr) {
				continue
			}
			switch {
			case m.GetCounter() != nil:
				sum += m.GetCounter().GetValue()
			case m.GetGauge() != nil:
				sum += m.GetGauge().GetValue()
			case m.GetHistogram() != nil:
				sum += float64(m.GetHistogram().GetSampleCount())
			}
		}
	}
	return sum
}

// syncBuffer is a goroutine-safe log sink.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// mustBlocks decodes a recorded message's blocks into slack-go blocks.
func mustBlocks(t testing.TB, m slacktest.Message) []slack.Block {
	t.Helper()
	if len(m.Blocks) == 0 {
		return nil
	}
	var bs slack.Blocks
	if err := json.Unmarshal(m.Blocks, &bs); err != nil {
		t.Fatalf("decode blocks: %v", err)
	}
	return bs.BlockSet
}

func searchReq(text string) search.Request { return search.Request{Text: text, Limit: 5} }

// firstBlockOnly is m with only its first block.
func firstBlockOnly(t testing.TB, m slacktest.Message) slacktest.Message {
	t.Helper()
	var blocks []json.RawMessage
	if err := json.Unmarshal(m.Blocks, &blocks); err != nil || len(blocks) == 0 {
		t.Fatalf("message has no blocks: %v", err)
	}
	m.Text = ""
	m.Blocks, _ = json.Marshal(blocks[:1])
	return m
}
