package taste_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/bot/digest/digesttest"
	"github.com/paperbot/paperbot/bot/digest/memstore"
	"github.com/paperbot/paperbot/bot/memory"
	"github.com/paperbot/paperbot/bot/taste"
	"github.com/paperbot/paperbot/search"
	"github.com/paperbot/paperbot/search/eval"
)

// The simulated channels: a channel subscribes to a broad topic (an ICLR
// 2024 author keyword); its readers' taste is a narrower keyword (the papers
// whose authors listed it are the ones they like). They vote on the papers
// of the first votedDays digests (👍 a paper of their taste, 👎 any other);
// the later digests are scored by nDCG@digestSize against their taste.
const (
	digestSize = 5
	votedDays  = 2
	days       = 10
	maxPairs   = 60
	// A taste is a keyword of minTaste papers or more, minShared of which
	// its topic lists and finds among its first 100.
	minTaste  = 5
	minShared = 3
)

// iclr is the ICLR 2024 scrape beside the repository (../shared/corpora).
var iclr = filepath.Join("..", "..", "..", "shared", "corpora", "dotd-NeurIPS2024Scrape", "ICLR_cc_2024_Conference.csv")

// pair is one simulated channel.
type pair struct {
	topic, taste string
	likes        map[string]bool // benchmark document IDs of the taste
	ideal        float64         // DCG of a digest of digestSize taste papers the topic finds
}

// world is the index and the channels of one split, built once.
type world struct {
	b     *eval.Benchmark
	ix    *search.Index
	pairs []pair
}

var (
	worldsMu sync.Mutex
	worlds   = map[string]*world{}
)

// loadWorld builds the keyword benchmark's index and the split's channels:
// for each keyword of the split liked by 8 to 60 papers, the topic is the
// keyword of either split sharing the most of its papers while listing at
// least twice as many, kept when the topic's own search finds 5 or more of
// the taste's papers.
func loadWorld(tb testing.TB, split string) *world {
	tb.Helper()
	if raceEnabled {
		tb.Skip("the simulated channels index 7,000 papers: minutes under the race detector; .ci/run runs them without")
	}
	if _, err := os.Stat(iclr); err != nil {
		tb.Skip("the ICLR 2024 scrape is not beside the repository:", err)
	}
	worldsMu.Lock()
	defer worldsMu.Unlock()
	if w := worlds[split]; w != nil {
		return w
	}
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("paperbot-taste-%d", os.Getpid()))
	if _, err := os.Stat(filepath.Join(dir, "keywords")); err != nil {
		if err := eval.WriteOpenReviewBEIR(iclr, dir); err != nil {
			tb.Fatal(err)
		}
	}
	b, err := eval.LoadBEIR(filepath.Join(dir, "keywords"), split)
	if err != nil {
		tb.Fatal(err)
	}
	other := map[string]string{"train": "test", "test": "train"}[split]
	ob, err := eval.LoadBEIR(filepath.Join(dir, "keywords"), other)
	if err != nil {
		tb.Fatal(err)
	}
	ix, err := search.Open(context.Background(), b.Corpus, search.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	w := &world{b: b, ix: ix}
	all := append(append([]eval.Query(nil), b.Queries...), ob.Queries...)
	for _, k := range b.Queries {
		if len(k.Relevant) < minTaste || len(k.Relevant) > 60 {
			continue
		}
		best, bestShared := eval.Query{}, 0
		for _, t := range all {
			if t.ID == k.ID || t.Text == k.Text || len(t.Relevant) < 2*len(k.Relevant) {
				continue
			}
			shared := 0
			for d := range k.Relevant {
				if t.Relevant[d] > 0 {
					shared++
				}
			}
			if shared > bestShared || shared == bestShared && shared > 0 && t.ID < best.ID {
				best, bestShared = t, shared
			}
		}
		if bestShared < minShared {
			continue
		}
		p := pair{topic: best.Text, taste: k.Text, likes: map[string]bool{}}
		for d := range k.Relevant {
			p.likes[d] = true
		}
		found, early := 0, 0
		for off := 0; off < 500; off += 50 {
			res, err := ix.Search(context.Background(), search.Request{Text: p.topic, Limit: 50, Offset: off})
			if err != nil {
				tb.Fatal(err)
			}
			for i, r := range res.Results {
				if p.likes[b.DocOf[r.ID]] {
					found++
					if off+i < 100 {
						early++
					}
				}
			}
			if res.NoMatch || off+len(res.Results) >= res.Total {
				break
			}
		}
		if early < minShared {
			continue
		}
		for i := range min(found, digestSize) {
			p.ideal += 1 / math.Log2(float64(i+2))
		}
		w.pairs = append(w.pairs, p)
	}
	sort.Slice(w.pairs, func(i, j int) bool { return w.pairs[i].taste < w.pairs[j].taste })
	if len(w.pairs) > maxPairs {
		w.pairs = w.pairs[:maxPairs]
	}
	worlds[split] = w
	return w
}

// votes is a channel's votes, in memory.
type votes []memory.Vote

func (v *votes) Votes(context.Context, string) ([]memory.Vote, error) { return *v, nil }

// simulate runs a channel's digests through the digest package's own
// choice of papers (digest.Preview, the ledger in a memstore) and returns
// the mean nDCG of the digests after the voted ones. learn says whether its
// searcher re-ranks by the votes.
func simulate(tb testing.TB, w *world, p pair, learn bool, tuning taste.Tuning) float64 {
	tb.Helper()
	ctx := context.Background()
	st := memstore.New()
	sub := digesttest.Sub("sb2kq7", "C1", "U1", 0)
	sub.Topic = p.topic
	if err := st.Create(ctx, sub); err != nil {
		tb.Fatal(err)
	}
	var vs votes
	var srch digest.Searcher = w.ix
	if learn {
		srch = taste.Searcher{Searcher: w.ix, Votes: &vs, Vectors: taste.TermVectors{Index: w.ix}, Tuning: tuning}
	}
	var sum float64
	for day := range days {
		d, err := digest.Preview(ctx, st, srch, sub, digestSize, digesttest.T0.Add(time.Duration(day)*24*time.Hour), digest.Fresh{})
		if err != nil {
			tb.Fatal(err)
		}
		var dcg float64
		ids := make([]string, len(d.Papers))
		for i, r := range d.Papers {
			ids[i] = r.ID
			liked := p.likes[w.b.DocOf[r.ID]]
			if liked {
				dcg += 1 / math.Log2(float64(i+2))
			}
			if day < votedDays {
				value := memory.Down
				if liked {
					value = memory.Up
				}
				vs = append(vs, memory.Vote{Channel: "C1", User: "U1", PaperID: r.ID, Value: value})
			}
		}
		if day >= votedDays {
			sum += dcg / p.ideal
		}
		key := digesttest.Key("sb2kq7", day)
		for _, step := range []error{
			func() error { _, _, err := st.Claim(ctx, digesttest.Claim(key, "C1")); return err }(),
			st.Choose(ctx, key, ids, digesttest.T0),
			st.MarkPosted(ctx, key, fmt.Sprint(day), digesttest.T0),
		} {
			if step != nil {
				tb.Fatal(step)
			}
		}
	}
	return sum / float64(days-votedDays)
}

// measure is the mean nDCG of the later digests over the split's channels,
// unlearned and learned.
func measure(tb testing.TB, w *world, tuning taste.Tuning) (plain, learned float64) {
	for _, p := range w.pairs {
		plain += simulate(tb, w, p, false, tuning)
		learned += simulate(tb, w, p, true, tuning)
	}
	n := float64(len(w.pairs))
	return plain / n, learned / n
}

// TestTasteLearns: on the train split's simulated channels, digests that
// learn from the first two digests' votes rank the channel's taste higher
// in the four after them than the topic's own order does.
func TestTasteLearns(t *testing.T) {
	w := loadWorld(t, "train")
	if len(w.pairs) < 10 {
		t.Fatalf("only %d simulated channels", len(w.pairs))
	}
	plain, learned := measure(t, w, taste.DefaultTuning)
	t.Logf("%d channels: nDCG@%d of digests %d–%d: unlearned %.4f, learned %.4f", len(w.pairs), digestSize, votedDays+1, days, plain, learned)
	if learned <= plain {
		t.Errorf("learned nDCG %.4f is not above the unlearned %.4f", learned, plain)
	}
}

// BenchmarkTaste reports the held-out figure: the test split's channels.
//
//	go test -run '^$' -bench Taste -benchtime 1x ./bot/taste/
func BenchmarkTaste(b *testing.B) {
	w := loadWorld(b, "test")
	var plain, learned float64
	for b.Loop() {
		plain, learned = measure(b, w, taste.DefaultTuning)
	}
	b.ReportMetric(plain, "nDCG-unlearned")
	b.ReportMetric(learned, "nDCG-learned")
	b.ReportMetric(float64(len(w.pairs)), "channels")
}

// TestTasteSweep prints the train split's figures over a grid of tunings:
// PAPERBOT_TASTE_SWEEP=1 go test -run TasteSweep -v ./bot/taste/
func TestTasteSweep(t *testing.T) {
	if os.Getenv("PAPERBOT_TASTE_SWEEP") == "" {
		t.Skip("set PAPERBOT_TASTE_SWEEP=1 to sweep the tuning on the train split")
	}
	w := loadWorld(t, "train")
	for _, blend := range []float64{0.05, 0.1, 0.2, 0.4} {
		for _, dis := range []float64{0.25, 1} {
			tu := taste.Tuning{Liked: 1, Disliked: dis, Blend: blend}
			plain, learned := measure(t, w, tu)
			t.Logf("blend %.2f disliked %.2f: unlearned %.4f learned %.4f", blend, dis, plain, learned)
		}
	}
}
