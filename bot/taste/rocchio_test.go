package taste

import (
	"fmt"
	"slices"
	"testing"

	"github.com/paperbot/paperbot/fault"
	"github.com/paperbot/paperbot/search"
)

// fixedVectors are hand-made paper vectors.
type fixedVectors map[string]Vector

func (f fixedVectors) Vector(id string) (Vector, error) {
	if v, ok := f[id]; ok {
		return v, nil
	}
	return nil, fault.E("vector", fault.NotFound, "no paper "+id)
}

var vecs = fixedVectors{
	"gnn1": {"graph": 0.8, "neural": 0.6}, "gnn2": {"graph": 0.9, "message": 0.436},
	"cv1": {"image": 0.8, "pixel": 0.6}, "cv2": {"image": 0.6, "convolution": 0.8},
	"rl1": {"reward": 1},
}

func results(ids ...string) []search.Result {
	out := make([]search.Result, len(ids))
	for i, id := range ids {
		out[i] = search.Result{Paper: search.Paper{ID: id}, Score: 1 - 0.05*float64(i)}
	}
	return out
}

func order(rs []Ranked) []string {
	var ids []string
	for _, r := range rs {
		ids = append(ids, r.ID)
	}
	return ids
}

func TestRerank(t *testing.T) {
	cands := results("cv2", "rl1", "gnn2", "gone")
	for _, tt := range []struct {
		name            string
		liked, disliked []string
		want            []string
		because         map[string]string
	}{
		{"no votes keep the topic's order", nil, nil, []string{"cv2", "rl1", "gnn2", "gone"}, nil},
		{"a liked graph paper lifts the graph paper", []string{"gnn1"}, nil, []string{"gnn2", "cv2", "rl1", "gone"}, map[string]string{"gnn2": "gnn1"}},
		{"a disliked vision paper sinks the vision paper", nil, []string{"cv1"}, []string{"rl1", "gnn2", "cv2", "gone"}, nil},
		{"votes on papers gone from the index are ignored", []string{"nope"}, nil, []string{"cv2", "rl1", "gnn2", "gone"}, nil},
		{"a liked paper is not its own reason", []string{"gnn2"}, nil, []string{"gnn2", "cv2", "rl1", "gone"}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := Learn(DefaultTuning, vecs, tt.liked, tt.disliked)
			got := p.Rerank(vecs, cands)
			if !slices.Equal(order(got), tt.want) {
				t.Fatalf("order %v, want %v", order(got), tt.want)
			}
			for _, r := range got {
				if r.Because != tt.because[r.ID] {
					t.Errorf("%s: because %q, want %q", r.ID, r.Because, tt.because[r.ID])
				}
			}
		})
	}
}

// Rerank only reorders: every candidate comes back once, none is added.
func TestRerankNeverAddsOrDrops(t *testing.T) {
	var ids []string
	for i := range 30 {
		ids = append(ids, fmt.Sprintf("p%02d", i))
	}
	ids = append(ids, "gnn2", "cv1")
	p := Learn(DefaultTuning, vecs, []string{"gnn1", "gnn2"}, []string{"cv2"})
	got := order(p.Rerank(vecs, results(ids...)))
	slices.Sort(got)
	want := slices.Clone(ids)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("reranked set %v, want %v", got, want)
	}
}
