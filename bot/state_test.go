package bot

import (
	"strings"
	"testing"
)

func TestViewStateRoundTrip(t *testing.T) {
	for _, st := range []viewState{
		{Kind: viewSearch, Offset: 5, Arg: "protein | folding"},
		{Kind: viewSimilar, Arg: "aay87f2q"},
		{Kind: viewPaper, Arg: "x"},
		{Kind: viewSearch, Arg: strings.Repeat("é", maxQueryChars)},
	} {
		got, err := decodeState(st.encode())
		if err != nil || got != st {
			t.Errorf("decode(encode(%+v)) = %+v, %v", st, got, err)
		}
		if n := len([]rune(st.encode())); n > 2000 {
			t.Errorf("encoded state is %d characters, over the 2000 button value limit", n)
		}
	}
}

func TestDecodeStateRejectsGarbage(t *testing.T) {
	for _, v := range []string{"", "q", "q|1", "x|0|a", "q|-1|a", "q|abc|a", "q|0|", "q|0|  ", "qq|0|a", "q|99999999|a",
		"q|0|" + strings.Repeat("a", maxQueryChars+1), "q|0|\xff"} {
		if st, err := decodeState(v); err == nil {
			t.Errorf("decodeState(%q) = %+v, want an error", v, st)
		}
	}
}

func FuzzDecodeState(f *testing.F) {
	f.Add("q|0|protein")
	f.Add("s|0|aay87f2q")
	f.Add("p|3|x|y")
	f.Fuzz(func(t *testing.T, v string) {
		st, err := decodeState(v)
		if err != nil {
			return
		}
		again, err := decodeState(st.encode())
		if err != nil || again != st {
			t.Fatalf("state %+v from %q does not round-trip: %+v, %v", st, v, again, err)
		}
	})
}
