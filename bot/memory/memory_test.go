package memory

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/paperbot/paperbot/fault"
)

func TestOwnerRoundTrip(t *testing.T) {
	for _, o := range []Owner{User("U1"), Channel("C1")} {
		got, err := ParseOwner(o.String())
		if err != nil || got != o {
			t.Errorf("%s read back as %+v, %v", o, got, err)
		}
	}
	for _, bad := range []string{"U1", "team:T1", "user:", "user:U 1", "channel:C:1"} {
		if _, err := ParseOwner(bad); err == nil {
			t.Errorf("ParseOwner(%q) accepted", bad)
		}
	}
}

func TestVoteValidateAndTallies(t *testing.T) {
	for _, v := range []Vote{{Channel: "C", User: "U", PaperID: "p", Value: 2}, {User: "U", PaperID: "p", Value: Up}, {Channel: "C", User: "U", PaperID: "p q", Value: Up}} {
		if err := v.Validate(); !errors.Is(err, fault.Invalid) {
			t.Errorf("%+v: %v, want Invalid", v, err)
		}
	}
	got := Tallies([]Vote{{PaperID: "a", Value: Up}, {PaperID: "a", Value: Down}, {PaperID: "a", Value: Up}, {PaperID: "b", Value: Down}})
	if got["a"] != (Tally{Up: 2, Down: 1}) || got["b"] != (Tally{Down: 1}) {
		t.Errorf("tallies %v", got)
	}
}

// Votes cast in the same instant come in one order from every store: by
// paper, then user.
func TestSortVotesBreaksTiesByPaperThenUser(t *testing.T) {
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	votes := []Vote{
		{User: "U1", PaperID: "b", At: t0},
		{User: "U2", PaperID: "a", At: t0},
		{User: "U9", PaperID: "z", At: t0.Add(-time.Minute)},
		{User: "U1", PaperID: "a", At: t0},
	}
	SortVotes(votes)
	var got []string
	for _, v := range votes {
		got = append(got, v.PaperID+"/"+v.User)
	}
	if want := "z/U9 a/U1 a/U2 b/U1"; strings.Join(got, " ") != want {
		t.Fatalf("sorted %v, want %s", got, want)
	}
}
