package query

import (
	"slices"
	"testing"
)

// Asking where a paper's code is asks for the paper, which links its code:
// "code" is no topic then, as it is in "LLMs trained on code".
func TestCodeRequestIsNoTopic(t *testing.T) {
	for q, want := range map[string]bool{
		"where is the code for SepLLM?":        false,
		"is there code for LaCache?":           false,
		"can I find the github of StealthInk?": false,
		"LLMs trained on code for reasoning?":  true,
	} {
		pq, err := ParseText(q)
		if err != nil {
			t.Fatal(err)
		}
		has := slices.ContainsFunc(pq.Text, func(c Clause) bool { return inSet("code|github", c.Text) })
		if has != want {
			t.Errorf("%q: searched for code or github %v, want %v", q, has, want)
		}
	}
}
