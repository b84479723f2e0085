package search

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/paperbot/paperbot/search/semantic"
)

// flakyEmbedder is the embedded model behind a switch: while down it fails
// like a served model that cannot be reached, and reports no size until it
// has answered once.
type flakyEmbedder struct {
	inner    semantic.Embedder
	down     atomic.Bool
	answered atomic.Bool
	id       string // ModelID; "" is the inner model's
}

func newFlaky(t *testing.T) *flakyEmbedder {
	t.Helper()
	m, err := embeddedModel()
	if err != nil {
		t.Fatalf("embedded model: %v", err)
	}
	return &flakyEmbedder{inner: m}
}

var errServerDown = errors.New("connection refused")

func (f *flakyEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if f.down.Load() {
		return nil, errServerDown
	}
	f.answered.Store(true)
	return f.inner.Embed(ctx, texts)
}

func (f *flakyEmbedder) Dims() int {
	if !f.answered.Load() {
		return 0
	}
	return f.inner.Dims()
}

func (f *flakyEmbedder) ModelID() string {
	if f.id != "" {
		return f.id
	}
	return f.inner.ModelID()
}

func TestPaperVectorsEncoding(t *testing.T) {
	pv := randomVectors(50, 16, 1)
	b := pv.encode()
	got, err := decodeVectors(b)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	if got.model != pv.model || got.dims != pv.dims || !slices.Equal(got.ids, pv.ids) || !slices.Equal(got.idEnd, pv.idEnd) ||
		!slices.Equal(got.byID, pv.byID) || !slices.Equal(got.codes, pv.codes) || !slices.Equal(got.scales, pv.scales) {
		t.Fatal("decoded vectors differ from the encoded ones")
	}
	for name, bad := range map[string][]byte{
		"flipped byte":  func() []byte { c := slices.Clone(b); c[len(c)/2] ^= 1; return c }(),
		"truncated":     b[:len(b)-7],
		"empty":         nil,
		"older version": append([]byte("PBVECS01"), b[8:]...),
	} {
		if _, err := decodeVectors(bad); !errors.Is(err, errDamagedVectors) {
			t.Errorf("%s: err %v, want errDamagedVectors", name, err)
		}
	}
}

func TestNearestIsExact(t *testing.T) {
	for _, n := range []int{7, 300, 3 * nearestSplit} {
		pv := randomVectors(n, 32, 2)
		q := quantizeQuery(randomUnit(rand.New(rand.NewPCG(9, uint64(n))), 32))
		keep := func(id string) bool { return id[len(id)-1] != '3' }
		var want []near
		for i := range pv.len() {
			if keep(pv.id(i)) {
				want = append(want, near{i, pv.cos(i, q)})
			}
		}
		sortNear(want)
		got := pv.nearest(q, 10, keep)
		if !slices.Equal(got, want[:min(10, len(want))]) {
			t.Errorf("%d papers: nearest %v, want %v", n, got, want[:min(10, len(want))])
		}
	}
}

func TestVectorsFollowChanges(t *testing.T) {
	pv := randomVectors(5, 8, 3)
	v := randomUnit(rand.New(rand.NewPCG(4, 4)), 8)
	add := newPaperVectors(pv.model, pv.dims, 2)
	add.add("p1", v)
	add.add("new", v)
	next := pv.with(add.seal(), []string{"p3"})
	if next.len() != 5 || pv.len() != 5 {
		t.Fatalf("%d vectors after the change (%d before), want 5 and 5", next.len(), pv.len())
	}
	if _, ok := next.pos("p3"); ok {
		t.Error("a deleted paper kept its vector")
	}
	for _, id := range []string{"p1", "new"} {
		if c, ok := next.cosOf(id, quantizeQuery(v)); !ok || c < 0.99 {
			t.Errorf("%s: cosine with its new vector %.3f (%v), want 1", id, c, ok)
		}
	}
	if c, _ := pv.cosOf("p1", quantizeQuery(v)); c > 0.99 {
		t.Error("the change altered the vectors it was made from")
	}
}

// TestMeaningFindsWhatNoWordMatches: "neuroscience" is a word no seed
// abstract uses; the sentence model still puts the brain-network paper
// first, and says it matched by meaning.
func TestMeaningFindsWhatNoWordMatches(t *testing.T) {
	ix, _ := seedIndex(t)
	res := search2(t, ix, "neuroscience")
	if len(res.Results) == 0 {
		t.Fatal("no paper listed")
	}
	top := res.Results[0]
	if top.ID != "ba0mzbhf" || top.Meaning <= 0 || len(top.Matched) > 0 {
		t.Errorf("first %s %q (meaning %.2f, matched %v), want NeuroTree (ba0mzbhf) by meaning alone", top.ID, top.Title, top.Meaning, top.Matched)
	}
}

// TestMeaningConfidenceSeparatesTopics: a question on what a paper is
// about gains confidence from the paper's closeness in meaning.
func TestMeaningConfidenceSeparatesTopics(t *testing.T) {
	_, c := seedIndex(t)
	meaning := DefaultTuning()
	meaning.MeaningConf, meaning.MeaningCenter = 0.3, 0.4
	on := openT(t, c, Options{Tuning: &meaning})
	words := meaning
	words.MeaningConf = 0
	off := openT(t, c, Options{Tuning: &words})
	const q = "kv cache compression for long-context inference"
	a, b := search2(t, on, q), search2(t, off, q)
	if a.NoMatch || a.Confidence <= b.Confidence {
		t.Errorf("%q: confidence %.3f with meaning, %.3f without (refused %v): a paper on it should raise it", q, a.Confidence, b.Confidence, a.NoMatch)
	}
}

func TestVectorsPersistAndFollowApply(t *testing.T) {
	_, c := seedIndex(t)
	dir := t.TempDir()
	ix := openT(t, c, Options{Dir: dir})
	if n := ix.MissingVectors(); n != 0 {
		t.Fatalf("%d papers without a vector after a build", n)
	}
	apply(t, ix, Batch{Upsert: []Paper{tardigrade("tardi001")}, Delete: []string{"ba0mzbhf"}})
	if n := ix.MissingVectors(); n != 0 {
		t.Fatalf("%d papers without a vector after Apply", n)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	re, err := OpenDir(context.Background(), Options{Dir: dir})
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	t.Cleanup(func() { _ = re.Close() }) // after liveState releases its lease
	st := liveState(t, re)
	if _, ok := st.vecs.pos("tardi001"); !ok {
		t.Error("the paper added by Apply has no vector after a reopen")
	}
	if _, ok := st.vecs.pos("ba0mzbhf"); ok {
		t.Error("the paper deleted by Apply kept its vector")
	}
	if st.vecs.len() != len(c.Papers) {
		t.Errorf("%d vectors after one paper added and one deleted, want %d", st.vecs.len(), len(c.Papers))
	}
	for _, r := range search2(t, re, "neuroscience").Results {
		if r.ID == "ba0mzbhf" {
			t.Error("the paper deleted by Apply is still found by meaning")
		}
	}
}

func TestOtherModelsVectorsAreNeverQueried(t *testing.T) {
	_, c := seedIndex(t)
	dir := t.TempDir()
	ix := openT(t, c, Options{Dir: dir})
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	other := newFlaky(t)
	other.id = "static/another-model/256/0000"
	other.answered.Store(true)
	if _, err := OpenDir(context.Background(), Options{Dir: dir, Embedder: other}); KindOf(err) != NotFound {
		t.Fatalf("OpenDir with another model: err %v, want NotFound (the caller rebuilds)", err)
	}
	re, err := Open(context.Background(), c, Options{Dir: dir, Embedder: other})
	if err != nil {
		t.Fatal(err)
	}
	defer re.Close()
	if !re.Built() || re.MissingVectors() != 0 {
		t.Errorf("Open with another model: built %v, %d papers without its vectors; want a rebuild with them", re.Built(), re.MissingVectors())
	}
}

func TestServedModelDownAtQueryAnswersOnWords(t *testing.T) {
	_, c := seedIndex(t)
	emb := newFlaky(t)
	emb.answered.Store(true) // up at build
	var heard []error
	fused := DefaultTuning() // a served model is worth weighting in
	fused.Meaning = 0.5
	ix := openT(t, c, Options{Embedder: emb, Tuning: &fused, MeaningFailed: func(err error) { heard = append(heard, err) }})
	emb.down.Store(true)
	res := search2(t, ix, "kv cache compression")
	if res.NoMatch || len(res.Results) == 0 {
		t.Fatalf("with the model down: refused %v, %d results; the words should still answer", res.NoMatch, len(res.Results))
	}
	if ix.MeaningFailures() != 1 || len(heard) != 1 || !errors.Is(heard[0], errServerDown) {
		t.Errorf("failures counted %d, heard %v; want one, the server's error", ix.MeaningFailures(), heard)
	}
}

func TestServedModelDownAtBuildFillsVectorsLater(t *testing.T) {
	_, c := seedIndex(t)
	emb := newFlaky(t)
	emb.down.Store(true)
	ix := openT(t, c, Options{Dir: t.TempDir(), Embedder: emb})
	if n := ix.MissingVectors(); n != len(c.Papers) {
		t.Fatalf("%d papers without vectors after a build with the model down, want all %d", n, len(c.Papers))
	}
	if _, err := ix.FillVectors(context.Background()); err == nil {
		t.Error("FillVectors with the model still down reported success")
	}
	emb.down.Store(false)
	n, err := ix.FillVectors(context.Background())
	if err != nil || n != len(c.Papers) || ix.MissingVectors() != 0 {
		t.Fatalf("FillVectors: %d added, err %v, %d still missing", n, err, ix.MissingVectors())
	}
	if res := search2(t, ix, "neuroscience"); len(res.Results) == 0 || res.Results[0].Meaning <= 0 {
		t.Error("the filled-in vectors are not used")
	}
}

func randomVectors(n, dims int, seed uint64) *paperVectors {
	r := rand.New(rand.NewPCG(seed, seed))
	pv := newPaperVectors("test/model", dims, n)
	for i := range n {
		pv.add("p"+strconv.Itoa(i), randomUnit(r, dims))
	}
	return pv.seal()
}

func randomUnit(r *rand.Rand, dims int) []float32 {
	v := make([]float32, dims)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	semantic.Normalize(v)
	return v
}

// BenchmarkNearest times the scan of every paper's vector for a query's
// nearest 30, at 256 dimensions (the embedded model's):
// go test -run '^$' -bench BenchmarkNearest ./search/
func BenchmarkNearest(b *testing.B) {
	for _, n := range []int{5_900, 100_000, 1_000_000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			pv := randomVectors(n, 256, 7)
			q := quantizeQuery(randomUnit(rand.New(rand.NewPCG(1, 2)), 256))
			b.ResetTimer()
			for b.Loop() {
				pv.nearest(q, 30, nil)
			}
		})
	}
}

// TestCoarseNearestRecall: over a set large enough for the sign pass, the
// nearest papers found are those the full scan finds, for queries near
// some paper (as questions are near the papers on them).
func TestCoarseNearestRecall(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("scans 250,000 vectors 20 times: minutes under the race detector")
	}
	pv := randomVectors(coarseMin+50_000, 256, 11)
	r := rand.New(rand.NewPCG(3, 3))
	found, want := 0, 0
	for range 20 {
		// A query near a random paper: its vector plus noise.
		v := pv.vector(r.IntN(pv.len()))
		for j := range v {
			v[j] += float32(r.NormFloat64()) * 0.05
		}
		semantic.Normalize(v)
		q := quantizeQuery(v)
		var all []near
		for i := range pv.len() {
			all = append(all, near{i, pv.cos(i, q)})
		}
		sortNear(all)
		got := pv.nearest(q, 10, nil)
		for _, a := range all[:10] {
			want++
			if slices.ContainsFunc(got, func(g near) bool { return g.i == a.i }) {
				found++
			}
		}
	}
	if recall := float64(found) / float64(want); recall < 0.9 {
		t.Errorf("recall@10 of the sign pass %.3f, want at least 0.9", recall)
	} else {
		t.Logf("recall@10 %.3f", recall)
	}
}

// TestServedModelWeighsMeaningIn: a model the caller serves ranks with
// ServedTuning (its cosine in the rank), the built-in one with
// DefaultTuning, and an explicit Tuning wins over both.
func TestServedModelWeighsMeaningIn(t *testing.T) {
	_, c := seedIndex(t)
	emb := newFlaky(t)
	emb.answered.Store(true)
	own := DefaultTuning()
	own.Meaning = 0.2
	for _, tt := range []struct {
		name string
		opts Options
		want float64
	}{
		{"built in", Options{}, DefaultTuning().Meaning},
		{"served", Options{Embedder: emb}, ServedTuning().Meaning},
		{"explicit", Options{Embedder: emb, Tuning: &own}, 0.2},
	} {
		ix := openT(t, c, tt.opts)
		if got := liveState(t, ix).tune.Meaning; got != tt.want {
			t.Errorf("%s: Meaning %v, want %v", tt.name, got, tt.want)
		}
	}
	if ServedTuning().Meaning == 0 {
		t.Error("ServedTuning weighs no meaning in")
	}
}
