package digest_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/bot/digest/memstore"
	"github.com/paperbot/paperbot/search"
)

// corpus is a Searcher over papers whose abstract contains any topic word.
// Papers can be added while tests run, as a re-index would.
type corpus struct {
	mu     sync.Mutex
	papers []search.Paper
}

func newCorpus(n int, words string) *corpus {
	c := &corpus{}
	c.add(n, words)
	return c
}

// add appends n papers about words, with IDs continuing the sequence.
func (c *corpus) add(n int, words string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for range n {
		id := fmt.Sprintf("p%03d", len(c.papers))
		c.papers = append(c.papers, search.Paper{ID: id, Headline: "Paper " + id, Abstract: "We study " + words + "."})
	}
}

func (c *corpus) Search(ctx context.Context, r search.Request) (*search.Results, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var hits []search.Result
	for _, p := range c.papers {
		var matched []string
		for _, w := range strings.Fields(strings.ToLower(r.Text)) {
			if strings.Contains(strings.ToLower(p.Abstract), w) {
				matched = append(matched, w)
			}
		}
		if len(matched) > 0 {
			hits = append(hits, search.Result{Paper: p, Score: float64(len(matched)), Matched: matched})
		}
	}
	res := &search.Results{Query: r.Text, Total: len(hits), Offset: r.Offset, NoMatch: len(hits) == 0}
	limit := cmpOr(r.Limit, 5)
	if r.Offset < len(hits) {
		res.Results = hits[r.Offset:min(len(hits), r.Offset+limit)]
	}
	return res, nil
}

func cmpOr(a, b int) int {
	if a != 0 {
		return a
	}
	return b
}

func (c *corpus) Get(id string) (search.Paper, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range c.papers {
		if p.ID == id {
			return p, nil
		}
	}
	return search.Paper{}, &search.Error{Op: "get", Kind: search.NotFound, Msg: "no paper " + id}
}

// post is one message the fake poster accepted.
type post struct {
	Channel string
	Key     digest.RunKey
	TS      string
	At      time.Time // the clock when it was posted
	Papers  []string
	Late    bool
	Nothing bool
}

// poster is a Poster keeping messages per channel, like Slack would, with
// faults to inject.
type poster struct {
	mu    sync.Mutex
	clock *clock
	posts []post
	seq   int
	// unpostable maps a channel to the Slack error every post to it gets.
	unpostable map[string]string
	// failNext makes the next n posts fail with a transient error.
	failNext int
	// afterPost runs after a message exists and before Post returns; an
	// error it returns is returned by Post (as if the reply was lost).
	afterPost func(p post) error
	finds     int
	// findErr is returned by Find while set.
	findErr error
	// completes counts Complete calls; the fake posts digests whole.
	completes int
}

func newPoster(c *clock) *poster { return &poster{clock: c, unpostable: map[string]string{}} }

func (f *poster) Complete(ctx context.Context, d digest.Digest, ts string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.completes++
	return nil
}

func (f *poster) Post(ctx context.Context, d digest.Digest) (string, error) {
	f.mu.Lock()
	if code, ok := f.unpostable[d.Subscription.ChannelID]; ok {
		f.mu.Unlock()
		return "", &digest.UnpostableError{Code: code}
	}
	if f.failNext > 0 {
		f.failNext--
		f.mu.Unlock()
		return "", fmt.Errorf("slack: 500 internal error")
	}
	f.seq++
	p := post{Channel: d.Subscription.ChannelID, Key: d.Key, TS: fmt.Sprintf("%d.%06d", f.clock.Now().Unix(), f.seq),
		At: f.clock.Now(), Late: d.Late, Nothing: d.NothingNew}
	for _, r := range d.Papers {
		p.Papers = append(p.Papers, r.ID)
	}
	f.posts = append(f.posts, p)
	hook := f.afterPost
	f.mu.Unlock()
	if hook != nil {
		if err := hook(p); err != nil {
			return "", err
		}
	}
	return p.TS, nil
}

func (f *poster) Find(ctx context.Context, channel string, key digest.RunKey) (string, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.finds++
	if f.findErr != nil {
		return "", false, f.findErr
	}
	for _, p := range f.posts {
		if p.Channel == channel && p.Key == key {
			return p.TS, true, nil
		}
	}
	return "", false, nil
}

func (f *poster) all() []post {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.posts)
}

type notifier struct {
	mu  sync.Mutex
	dms map[string][]string
}

func (n *notifier) Notify(ctx context.Context, user, text string) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.dms == nil {
		n.dms = map[string][]string{}
	}
	n.dms[user] = append(n.dms[user], text)
	return nil
}

func (n *notifier) to(user string) []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Clone(n.dms[user])
}

// clock is a settable time source.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Set(t time.Time) { c.mu.Lock(); defer c.mu.Unlock(); c.t = t }

// world is a scheduler with fakes around it.
type world struct {
	t        *testing.T
	clock    *clock
	store    digest.Store
	corpus   *corpus
	poster   *poster
	notifier *notifier
	sched    *digest.Scheduler
	cfg      digest.Config
}

func newWorld(t *testing.T, start time.Time, cfg digest.Config) *world {
	t.Helper()
	w := &world{t: t, clock: &clock{t: start}, store: memstore.New(), corpus: newCorpus(40, "graph neural networks"), notifier: &notifier{}}
	w.poster = newPoster(w.clock)
	w.cfg = cfg
	w.restart()
	return w
}

// restart replaces the scheduler, as a new process would, keeping the store.
func (w *world) restart() {
	w.t.Helper()
	cfg := w.cfg
	cfg.Store, cfg.Searcher, cfg.Poster, cfg.Notifier, cfg.Now = w.store, w.corpus, w.poster, w.notifier, w.clock.Now
	s, err := digest.New(cfg)
	if err != nil {
		w.t.Fatal(err)
	}
	w.sched = s
}

func (w *world) subscribe(id, channel, topic string, s digest.Schedule) digest.Subscription {
	w.t.Helper()
	sub := digest.Subscription{ID: id, ChannelID: channel, CreatedBy: "U" + id, Topic: topic, Schedule: s, CreatedAt: w.clock.Now()}
	if err := w.store.Create(context.Background(), sub); err != nil {
		w.t.Fatal(err)
	}
	return sub
}

// runUntil ticks every step from the current time until end.
func (w *world) runUntil(end time.Time, step time.Duration) {
	w.t.Helper()
	for now := w.clock.Now(); !now.After(end); now = now.Add(step) {
		w.clock.Set(now)
		if err := w.sched.Tick(context.Background(), now); err != nil {
			w.t.Fatal(err)
		}
	}
	w.clock.Set(end)
}

func (w *world) tick() {
	w.t.Helper()
	if err := w.sched.Tick(context.Background(), w.clock.Now()); err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) run(key digest.RunKey) digest.Run {
	w.t.Helper()
	r, err := w.store.GetRun(context.Background(), key)
	if err != nil {
		w.t.Fatal(err)
	}
	return r
}

// noRepeats fails the test if a paper was posted twice to one channel or a
// run key was posted twice.
func noRepeats(t *testing.T, posts []post) {
	t.Helper()
	paper, key := map[string]digest.RunKey{}, map[digest.RunKey]bool{}
	for _, p := range posts {
		if key[p.Key] {
			t.Fatalf("run %s posted twice", p.Key)
		}
		key[p.Key] = true
		for _, id := range p.Papers {
			if k, ok := paper[p.Channel+"/"+id]; ok {
				t.Fatalf("paper %s posted to %s twice: by %s and %s", id, p.Channel, k, p.Key)
			}
			paper[p.Channel+"/"+id] = p.Key
		}
	}
}
