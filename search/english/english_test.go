package english

import "testing"

func TestListIsWhole(t *testing.T) {
	loadOnce.Do(load)
	if len(ranks) != Words {
		t.Fatalf("words.txt holds %d distinct words, want %d (regenerate it with gen.go)", len(ranks), Words)
	}
}

func TestCommonWordsAreMoreFrequent(t *testing.T) {
	for _, c := range []struct{ common, rarer string }{
		{"the", "patients"},
		{"patients", "medieval"},
		{"medieval", "neural"},
		{"neural", "transformer"},
	} {
		if Frequency(c.common) <= Frequency(c.rarer) {
			t.Errorf("Frequency(%q) = %g, not above Frequency(%q) = %g", c.common, Frequency(c.common), c.rarer, Frequency(c.rarer))
		}
	}
	if !Known("cancer") || Known("qwertyuiop") {
		t.Error("Known: want cancer in the list and qwertyuiop not")
	}
	if got, want := Frequency("qwertyuiop"), Unlisted; got != want {
		t.Errorf("an unlisted word's frequency = %g, want %g", got, want)
	}
}

func TestEachMatchesFrequency(t *testing.T) {
	n, wrong := 0, 0
	Each(func(w string, f float64) {
		n++
		if got := Frequency(w); got != f {
			wrong++
			if wrong == 1 {
				t.Errorf("Each gives %q frequency %g, Frequency %g", w, f, got)
			}
		}
	})
	if n != Words || wrong > 0 {
		t.Errorf("Each gave %d words (want %d), %d with another frequency than Frequency's", n, Words, wrong)
	}
}

func TestKnownForm(t *testing.T) {
	for _, w := range []string{"crossword", "crosswords", "theories", "boxes", "earthquakes"} {
		if !KnownForm(w) {
			t.Errorf("KnownForm(%q) = false, want true", w)
		}
	}
	for _, w := range []string{"transfomers", "crosswordss", "qwertys", "glassesx"} {
		if KnownForm(w) {
			t.Errorf("KnownForm(%q) = true, want false", w)
		}
	}
}

func TestRank(t *testing.T) {
	if r := Rank("the"); r != 1 {
		t.Errorf("Rank(the) = %d, want 1", r)
	}
	if Rank("using") >= Rank("vitamin") {
		t.Errorf("Rank(using) = %d, not before Rank(vitamin) = %d", Rank("using"), Rank("vitamin"))
	}
	if r := Rank("typhimurium"); r != Words+1 {
		t.Errorf("Rank of an unlisted word = %d, want %d", r, Words+1)
	}
}
