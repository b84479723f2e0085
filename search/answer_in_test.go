package search

import (
	"strings"
	"testing"
)

// A follow-up about one paper gets the sentence of its abstract that
// answers, a typed verb finding its other forms ("embed", "embedding"),
// and nothing when the abstract does not say.
func TestAnswerIn(t *testing.T) {
	ix, _ := seedIndex(t)
	const stealthInk = "5qc6brxw"
	cases := []struct {
		question, want string // want "" when the abstract does not say
	}{
		{"what does embed?", "embedding of provenance data"},
		{"user ID", "userID"},
		{"which dataset?", ""},
		{"what does it do?", " "}, // no words to match: its finding, whichever sentence it is
	}
	for _, c := range cases {
		p, got, err := ix.AnswerIn(t.Context(), stealthInk, c.question)
		if err != nil {
			t.Fatalf("AnswerIn(%q): %v", c.question, err)
		}
		if p.ID != stealthInk {
			t.Fatalf("paper %s, want %s", p.ID, stealthInk)
		}
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("AnswerIn(%q) = %q, want a sentence with %q", c.question, got, c.want)
		}
	}
	if _, _, err := ix.AnswerIn(t.Context(), "nosuchid", "what"); KindOf(err) != NotFound {
		t.Errorf("unknown paper: %v, want NotFound", err)
	}
}

// A paper the index lacks still shows its finding on a card.
func TestFindingSentence(t *testing.T) {
	ix, _ := seedIndex(t)
	p, want, err := ix.AnswerIn(t.Context(), "5qc6brxw", "")
	if err != nil {
		t.Fatal(err)
	}
	if got := FindingSentence(p.Abstract); got == "" || got != want {
		t.Errorf("FindingSentence = %q, want the index's finding %q", got, want)
	}
	if got := FindingSentence(""); got != "" {
		t.Errorf("FindingSentence(\"\") = %q", got)
	}
}
