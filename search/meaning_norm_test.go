package search

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/paperbot/paperbot/search/semantic"
)

// squeezedEmbedder is the embedded model with its cosines squeezed as a
// served model's often are (e5's all lie between about 0.7 and 0.9): each
// vector v becomes [a·v, b], so every cosine c becomes a²c + b², in the
// same order but with a quarter of the spread.
type squeezedEmbedder struct{ semantic.Embedder }

const squeezeA = 0.5

func (s squeezedEmbedder) Dims() int       { return s.Embedder.Dims() + 1 }
func (s squeezedEmbedder) ModelID() string { return s.Embedder.ModelID() + "/squeezed" }

func (s squeezedEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	vs, err := s.Embedder.Embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	b := float32(math.Sqrt(1 - squeezeA*squeezeA))
	out := make([][]float32, len(vs))
	for i, v := range vs {
		w := make([]float32, len(v)+1)
		for j, x := range v {
			w[j] = squeezeA * x
		}
		w[len(v)] = b
		out[i] = w
	}
	return out, nil
}

// TestMeaningNormOneWeightForEveryModel: with Tuning.MeaningNorm a model
// whose cosines are squeezed into a narrow band ranks as the same model
// unsqueezed, so one fusion weight serves models of any spread; on the raw
// cosine the squeezed model's meaning weighs a quarter as much.
func TestMeaningNormOneWeightForEveryModel(t *testing.T) {
	_, c := seedIndex(t)
	m, err := embeddedModel()
	if err != nil {
		t.Fatal(err)
	}
	queries := []string{"which papers make llm prefill faster", "protecting generated text from misuse",
		"how do brains and networks compare", "learning from few labelled examples",
		"speeding up attention for long documents", "fair decisions from models"}
	top := func(emb semantic.Embedder, norm float64) [][]string {
		tune := DefaultTuning()
		tune.Meaning, tune.MeaningNorm = 2, norm
		ix := openT(t, c, Options{Embedder: emb, Tuning: &tune})
		var out [][]string
		for _, q := range queries {
			res, err := ix.Search(t.Context(), Request{Text: q, Limit: 5})
			if err != nil {
				t.Fatalf("%q: %v", q, err)
			}
			out = append(out, ids(res.Results))
		}
		return out
	}
	// The vectors are kept in 8 bits, so papers all but tied may swap:
	// the first three in order, the page as a set.
	same := func(a, b []string) bool {
		return slices.Equal(a[:min(3, len(a))], b[:min(3, len(b))]) && slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
	}
	plain, squeezed := top(m, 1), top(squeezedEmbedder{m}, 1)
	for i, q := range queries {
		if !same(plain[i], squeezed[i]) {
			t.Errorf("%q with MeaningNorm: squeezed model ranks %v, unsqueezed %v", q, squeezed[i], plain[i])
		}
	}
	rawPlain, rawSqueezed := top(m, 0), top(squeezedEmbedder{m}, 0)
	if slices.EqualFunc(rawPlain, rawSqueezed, same) {
		t.Error("on raw cosines too the squeezed model ranks as the unsqueezed one: these queries do not test the weight")
	}
}
