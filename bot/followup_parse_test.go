package bot

import (
	"slices"
	"strings"
	"testing"
)

// Replies in a thread, text in, roles out: no index needed.
func TestParseFollowUp(t *testing.T) {
	cases := []struct {
		text   string
		intent followIntent
		cards  []int
		this   bool
		all    bool
		weak   bool
		rest   string
		bare   bool
	}{
		{"what does the first one embed?", followAsk, []int{1}, false, false, false, "what does embed", false},
		{"#2: which dataset?", followAsk, []int{2}, false, false, false, "which dataset", false},
		{"more like the second", followSimilar, []int{2}, false, false, false, "", true},
		{"anything newer on this?", followNewer, nil, false, false, false, "anything on this", true},
		{"show the abstract of 3", followAbstract, []int{3}, false, false, false, "show", true},
		{"compare 1 and 2", followCompare, []int{1, 2}, false, false, false, "", true},
		{"#1 vs #3", followCompare, []int{1, 3}, false, false, false, "", true},
		{"compare them", followCompare, nil, false, true, false, "", true},
		{"does that paper release code?", followAsk, nil, true, false, false, "does release code", false},
		{"what does it embed?", followAsk, nil, true, false, true, "what does embed", false},
		{"what does the last one use?", followAsk, []int{-1}, false, false, false, "what does use", false},
		{"#9", followAsk, []int{9}, false, false, false, "", true},
		{"3", followAsk, []int{3}, false, false, false, "", true},
		{"any papers trained on 3 datasets?", followAsk, nil, false, false, false, "any papers trained on 3 datasets", false},
		{"results from 2023 on diffusion", followAsk, nil, false, false, false, "results from 2023 on diffusion", false},
		{"tell me more about the second", followAbstract, []int{2}, false, false, false, "about", true},
		{"is there work on kv cache compression?", followAsk, nil, false, false, false, "is there work on kv cache compression", false},
		{"more like this", followSimilar, nil, false, false, false, "this", true},
		{"compare diffusion and GANs", followCompare, nil, false, false, false, "diffusion and gans", false},
		{"what's the latest on diffusion?", followNewer, nil, false, false, false, "what on diffusion", false},
		{"2 versus 3", followCompare, []int{2, 3}, false, false, false, "", true},
		{"1 & 2: which dataset?", followAsk, []int{1, 2}, false, false, false, "which dataset", false},
	}
	for _, c := range cases {
		t.Run(c.text, func(t *testing.T) {
			f := parseFollowUp(c.text)
			if f.Intent != c.intent || !slices.Equal(f.Cards, c.cards) || f.This != c.this || f.All != c.all || f.Weak != c.weak || f.Rest != c.rest || f.Bare != c.bare {
				t.Errorf("parseFollowUp(%q) = %+v\nwant intent %d cards %v this %v all %v weak %v rest %q bare %v", c.text, f, c.intent, c.cards, c.this, c.all, c.weak, c.rest, c.bare)
			}
		})
	}
}

// A reply in a thread without a mention is answered only when it asks
// something: people talk to each other there too.
func TestAsks(t *testing.T) {
	for text, want := range map[string]bool{
		"what does the first one embed?":     true,
		"#2: which dataset":                  true,
		"#2":                                 true,
		"the second one":                     true,
		"show the abstract of 3":             true,
		"compare 1 and 2":                    true,
		"more like the second":               true,
		"anything newer on this":             true,
		"does it release code":               true,
		"I think the second one is better":   false,
		"let's discuss this tomorrow":        false,
		"nice, I had read that one already":  false,
		"thanks!":                            false,
		"sure, what about diffusion models?": true,
	} {
		if got := asks(text); got != want {
			t.Errorf("asks(%q) = %v, want %v", text, got, want)
		}
	}
}

// Every row of followup_words.tsv has an example holding its words (filler
// rows: one example of the role), and
// every role is one the parse reads.
func TestFollowupWordsLint(t *testing.T) {
	known := map[string]bool{"ordinal": true, "this": true, "it": true, "all": true, "number": true,
		"abstract": true, "similar": true, "newer": true, "compare": true}
	for _, line := range strings.Split(followupWordsTSV, "\n") {
		if line == "" || strings.HasPrefix(line, "#") && !strings.HasPrefix(line, "#\t") {
			continue
		}
		f := strings.Split(line, "\t")
		role, _, _ := strings.Cut(f[1], ":")
		if !known[role] && !listRoles[role] {
			t.Errorf("%q: role %q is read by nothing", line, f[1])
		}
		// Filler rows share one example: a reply made of such words.
		if role != "filler" && !hasPhraseAnywhere(followTokens(f[2]), followTokens(f[0])) {
			t.Errorf("%q: the example does not hold the row's words", line)
		}
	}
}

func hasPhraseAnywhere(toks, words []string) bool {
	for i := range toks {
		if hasPhrase(toks[i:], words) {
			return true
		}
	}
	return false
}
