package search

import (
	"testing"
)

// A short query typed as one phrase is refused, at low confidence, when
// the papers that have its words have them far apart: over SciFact,
// "Vision Foundation Models" answered with a survey of blindness and low
// vision that says "models" and "foundation" in other sentences.
func TestShortScattered(t *testing.T) {
	s := &state{tune: DefaultTuning()}
	words := func(ws ...string) []group {
		var gs []group
		for i, w := range ws {
			gs = append(gs, group{surface: w, apart: i == 0, alts: []alt{{kind: altExact, terms: []string{w}}}})
		}
		return gs
	}
	paper := func(inTitle []bool, hits ...hit) candidate {
		return candidate{m: &docMatch{inTitle: inTitle, abstract: hits}}
	}
	vfm := words("vision", "foundation", "models")
	far := paper([]bool{true, false, false}, hit{group: 1, start: 100, end: 110}, hit{group: 2, start: 300, end: 306})
	near := paper([]bool{false, false, false}, hit{group: 0, start: 10, end: 16}, hit{group: 1, start: 17, end: 27}, hit{group: 2, start: 28, end: 34})
	titled := paper([]bool{true, true, true})
	// "vision ... models and foundation": one stretch, any order.
	reordered := paper([]bool{false, false, false}, hit{group: 0, start: 10, end: 16}, hit{group: 2, start: 30, end: 36}, hit{group: 1, start: 41, end: 51})
	for _, c := range []struct {
		name   string
		groups []group
		cands  []candidate
		want   bool
	}{
		{"words far apart", vfm, []candidate{far}, true},
		{"together in an abstract", vfm, []candidate{far, near}, false},
		{"together in a title", vfm, []candidate{far, titled}, false},
		{"together in another order", vfm, []candidate{far, reordered}, false},
		{"one word is no phrase", words("vision"), []candidate{far}, false},
		{"typed apart", append(words("vision"), group{surface: "models", apart: true}), []candidate{far}, false},
		{"too long to be one phrase", words("vision", "foundation", "models", "survey"), []candidate{far}, false},
	} {
		if got := s.shortScattered(c.cands, c.groups); got != c.want {
			t.Errorf("%s: shortScattered = %v, want %v", c.name, got, c.want)
		}
	}
}
