package bot

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// viewKind says what a results message shows, so a button can re-create it.
type viewKind byte

const (
	viewSearch  viewKind = 'q' // Arg is the query
	viewSimilar viewKind = 's' // Arg is the paper ID the results resemble
	viewPaper   viewKind = 'p' // Arg is one paper ID
	// viewText: Arg is pasted text (an abstract). It is too long for a
	// button, so its page has none of its own: no pager, no Share.
	viewText viewKind = 't'
)

// maxQueryChars bounds query text so that it always fits in a button value
// (2000 characters) together with the state header.
const maxQueryChars = 1000

// viewState is what a pager or share button carries in its value: enough to
// re-run the view without any server-side session.
type viewState struct {
	Kind   viewKind
	Offset int
	Arg    string
}

// encode renders the state as "kind|offset|arg".
func (s viewState) encode() string {
	return fmt.Sprintf("%c|%d|%s", s.Kind, s.Offset, s.Arg)
}

// decodeState parses a button value written by encode. It rejects anything
// else with an error: values come back from Slack and are not trusted.
func decodeState(v string) (viewState, error) {
	parts := strings.SplitN(v, "|", 3)
	if len(parts) != 3 || len(parts[0]) != 1 {
		return viewState{}, fmt.Errorf("malformed button state")
	}
	k := viewKind(parts[0][0])
	switch k {
	case viewSearch, viewSimilar, viewPaper:
	default:
		return viewState{}, fmt.Errorf("unknown view kind %q", parts[0])
	}
	off, err := strconv.Atoi(parts[1])
	if err != nil || off < 0 || off > 10000 {
		return viewState{}, fmt.Errorf("bad offset in button state")
	}
	arg := parts[2]
	if strings.TrimSpace(arg) == "" || utf8.RuneCountInString(arg) > maxQueryChars || !utf8.ValidString(arg) {
		return viewState{}, fmt.Errorf("bad argument in button state")
	}
	return viewState{Kind: k, Offset: off, Arg: arg}, nil
}
