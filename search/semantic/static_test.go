package semantic

import (
	"context"
	"errors"
	"math"
	"sync"
	"testing"
)

func TestEmbedIsNormalisedMean(t *testing.T) {
	m := tinyModel(t)
	// "the the text": rows 0, 0 and 3.
	want := make([]float32, m.Dims())
	for _, id := range []int{0, 0, 3} {
		for j, x := range m.Row(id, nil) {
			want[j] += x
		}
	}
	Normalize(want)
	got := m.EmbedText("The the TEXT", nil)
	for j := range want {
		if math.Abs(float64(got[j]-want[j])) > 1e-6 {
			t.Fatalf("EmbedText = %v, want %v", got, want)
		}
	}
	if n := norm(got); math.Abs(n-1) > 1e-6 {
		t.Errorf("norm = %v, want 1", n)
	}
}

func TestEmbedNothingKnownIsZero(t *testing.T) {
	m := tinyModel(t)
	for _, text := range []string{"", "zzz qqq", "   "} {
		if n := norm(m.EmbedText(text, nil)); n != 0 {
			t.Errorf("EmbedText(%q) has norm %v, want 0", text, n)
		}
	}
}

func TestEmbedBatchMatchesSingle(t *testing.T) {
	m := tinyModel(t)
	texts := []string{"the watermarks", "", "protein folding", "llm text"}
	vecs, err := m.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range texts {
		want := m.EmbedText(text, nil)
		for j := range want {
			if vecs[i][j] != want[j] {
				t.Fatalf("Embed[%d] = %v, EmbedText = %v", i, vecs[i], want)
			}
		}
	}
	vecs[0][0] = 99 // vectors must not share memory across texts
	if vecs[1][0] == 99 || len(vecs[0]) != m.Dims() || cap(vecs[0]) != m.Dims() {
		t.Error("Embed's vectors overlap")
	}
}

func TestEmbedCancelled(t *testing.T) {
	m := tinyModel(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Embed(ctx, []string{"text"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Embed = %v, want context.Canceled", err)
	}
}

func TestEmbedConcurrent(t *testing.T) {
	m := tinyModel(t)
	want := m.EmbedText("the watermarks of llm text", nil)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 200 {
				got := m.EmbedText("the watermarks of llm text", nil)
				for j := range want {
					if got[j] != want[j] {
						t.Errorf("concurrent EmbedText differs")
						return
					}
				}
			}
		})
	}
	wg.Wait()
}

func norm(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}
