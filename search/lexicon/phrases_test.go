package lexicon

import (
	"strings"
	"testing"
)

// words is a text as At reads it: words split on spaces, bare without
// the punctuation around them, ending a clause before , . ? ! : ;
func words(text string) (int, func(j int) (string, bool)) {
	ws := strings.Fields(text)
	return len(ws), func(j int) (string, bool) {
		w := ws[j]
		return strings.ToLower(strings.Trim(w, ",.?!:;")), strings.ContainsAny(w[len(w)-1:], ",.?!:;")
	}
}

func TestPatternAt(t *testing.T) {
	for _, tt := range []struct {
		pattern, text string
		i             int
		want          bool
	}{
		{"under the [hood]", "how does it work under the hood", 6, true},
		{"under the [hood]", "the hood of a car", 1, false},
		{"under the [hood]", "under the, hood", 2, false}, // no reaching back over a comma
		{"any|no [idea|ideas]", "no ideas who did it", 1, true},
		{"any|no [idea|ideas]", "some ideas", 1, false},
		{"[appreciated] $", "pointers appreciated", 1, true},
		{"[appreciated] $", "appreciated papers", 0, false},
		{"^ [stuck] _ on", "stuck on GNNs", 0, true},
		{"^ [stuck] _ on", "stuck, on GNNs", 0, false},
		{"^ [stuck] _ on", "I am stuck on GNNs", 2, false},
		{"* , [link] $", "a paper on prefill, link?", 4, true},
		{"* , [link] $", "a paper on prefill link?", 4, false},
		{"* , [link] $", "link?", 0, false},
		{"!of [thoughts] _ on", "people's thoughts on mamba", 1, true},
		{"!of [thoughts] _ on", "thoughts on mamba", 0, true},
		{"!of [thoughts] _ on", "tree of thoughts on mamba", 2, false},
		{"!of [thoughts] _ on", "a tree of, thoughts on mamba", 3, true}, // "of," ends a clause: no word
		{"[main] _ result|results ,", "main results, briefly", 0, true},
		{"[main] _ result|results ,", "main results briefly", 0, false},
	} {
		pt, err := parsePattern(tt.pattern)
		if err != nil {
			t.Fatal(err)
		}
		n, word := words(tt.text)
		if w, _ := word(tt.i); !pt.toks[pt.focal].words[w] {
			t.Fatalf("%q: word %d is not a focal word of %q", tt.text, tt.i, tt.pattern)
		}
		if got := pt.at(n, tt.i, word); got != tt.want {
			t.Errorf("%q at %d of %q = %v, want %v", tt.pattern, tt.i, tt.text, got, tt.want)
		}
	}
}

func TestPatternErrors(t *testing.T) {
	for _, src := range []string{"under the hood", "[a] [b]", "[*] up", ", [a]", "[a] !", "[@nosuch/role] up"} {
		func() {
			defer func() { recover() }() // an unknown set panics, as Words does
			if _, err := parsePattern(src); err == nil {
				t.Errorf("%q parses", src)
			}
		}()
	}
}
