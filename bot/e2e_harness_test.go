package bot

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/bottest"
	"github.com/paperbot/paperbot/bot/slacktest"
	"github.com/paperbot/paperbot/search"
)

// wait bounds every wait on the emulator.
const wait = bottest.Wait

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

// harness runs the real Bot through bottest's harness.
type harness struct {
	*bottest.Harness
	t    testing.TB
	srv  *slacktest.Server
	bot  *Bot
	logs *bottest.Buffer
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
	h.Start(h.bot)
	return h
}

func newHarness(t testing.TB, o harnessOpts) *harness {
	t.Helper()
	bh := bottest.New(t, o.srv...)
	srv := bh.Srv
	cfg := Config{BotToken: srv.BotToken(), AppToken: srv.AppToken(), APIURL: srv.APIURL(),
		Workers: 4, ShutdownGrace: 5 * time.Second, HTTPTimeout: 5 * time.Second}
	if o.config != nil {
		o.config(&cfg)
	}
	s := o.search
	if s == nil {
		s = testIndex(t)
	}
	b, err := New(cfg, s, bh.Logger(), o.bot...)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	bh.StopGrace = b.cfg.ShutdownGrace
	return &harness{Harness: bh, t: t, srv: srv, bot: b, logs: bh.Logs}
}

// run starts Bot.Run; the test's cleanup stops it.
func (h *harness) run() { h.Run(h.bot) }

// stop cancels Run and returns its result (once; later calls return nil).
func (h *harness) stop() error { return h.Stop() }

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

func searchReq(text string) search.Request { return search.Request{Text: text, Limit: 5} }
