package search

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// TestPapersTitled: a title finds the papers whose title holds it as a
// phrase, whatever its case and punctuation, and nothing else.
func TestPapersTitled(t *testing.T) {
	_, c := seedIndex(t)
	ix := openT(t, c, Options{})
	apply(t, ix, Batch{Upsert: []Paper{tardigrade("tard0001")}})
	ids := func(title string) []string {
		t.Helper()
		ps, err := ix.PapersTitled(context.Background(), title)
		if err != nil {
			t.Fatalf("PapersTitled(%q): %v", title, err)
		}
		var out []string
		for _, p := range ps {
			out = append(out, p.ID)
		}
		return out
	}
	for _, title := range []string{"Tardigrade cryptobiosis survives hard vacuum", "TARDIGRADE Cryptobiosis: survives hard-vacuum."} {
		if got := ids(title); !slices.Contains(got, "tard0001") {
			t.Errorf("PapersTitled(%q) = %q, want tard0001 among them", title, got)
		}
	}
	for _, title := range []string{"vacuum survives hard", "Tardigrade desiccation", "", "  "} {
		if got := ids(title); len(got) != 0 {
			t.Errorf("PapersTitled(%q) = %q, want none", title, got)
		}
	}
}

func TestLookup(t *testing.T) {
	ix, c := seedIndex(t)
	p := c.Papers[0]
	for _, ref := range []string{p.ID, " " + p.ID + " ", p.Title, strings.ToUpper(p.Title), strings.ReplaceAll(p.Title, ":", " -")} {
		got, err := ix.Lookup(t.Context(), ref)
		if err != nil || got.ID != p.ID {
			t.Errorf("Lookup(%q) = %s, %v; want %s", ref, got.ID, err, p.ID)
		}
	}
	// A typo or two in a whole title: still that paper.
	typo := strings.Replace(strings.Replace(p.Title, "a", "", 1), "e", "ee", 1)
	if got, err := ix.Lookup(t.Context(), typo); err != nil || got.ID != p.ID {
		t.Errorf("Lookup(%q) = %s, %v; want %s", typo, got.ID, err, p.ID)
	}
	for _, ref := range []string{"zzzzzzzz", "no such title at all", "language models"} {
		if _, err := ix.Lookup(t.Context(), ref); KindOf(err) != NotFound {
			t.Errorf("Lookup(%q): err %v, want NotFound", ref, err)
		}
	}
}
