package query

import (
	"fmt"
	"strings"
	"time"
)

// Role is what a word of a parsed query does: searched as its topic, or
// something else the request says in words.
type Role string

// The roles of a query's words.
const (
	RoleTopic   Role = "topic"   // searched
	RoleFrame   Role = "frame"   // shapes the request ("papers on", "any idea"), not searched
	RoleCount   Role = "count"   // how many papers are asked for ("5 papers")
	RoleChannel Role = "channel" // a Slack channel ("#ml-reading"): where, not what
	RoleMarker  Role = "marker"  // numbers an item of a typed list ("1.", "(2)")
	RoleAction  Role = "action"  // what the asker wants to do ("how do I grab …"): searched only if the papers say it
	RoleSpan    Role = "span"    // opens a span of years ("since 2023")
	RoleExclude Role = "exclude" // left out (-word, "but not …")
	RoleFilter  Role = "filter"  // title:, author:, venue:, year:, has:code, cat:, since:, date:
)

// Word is a word (or quoted phrase) of a parsed query with its role.
type Word struct {
	Text   string
	Phrase bool
	Role   Role
}

// Words returns q's words with their roles: its free text in the order
// typed, then what it leaves out, then its filters. Words the parse drops
// whole (a greeting, a chat label, "related work section on") are not
// among them. Roles are read as the search reads them, before the index
// joins words it knows as one ("state of the art").
func (q *Query) Words() []Word {
	p := q.parsed
	out := make([]Word, 0, len(p.Text)+len(p.Exclude)+len(p.Fields)+len(p.Years))
	for i, c := range p.Text {
		out = append(out, Word{Text: c.Text, Phrase: c.Phrase, Role: textRole(p.Text, i, p.Question)})
	}
	for _, c := range p.Exclude {
		out = append(out, Word{Text: c.Text, Phrase: c.Phrase, Role: RoleExclude})
	}
	for _, f := range p.Fields {
		out = append(out, Word{Text: FieldLabel(f.Field) + ":" + f.Text, Phrase: f.Phrase, Role: RoleFilter})
	}
	for _, y := range p.Years {
		out = append(out, Word{Text: yearString(y), Role: RoleFilter})
	}
	if p.HasCode != nil {
		text := "has:code"
		if !*p.HasCode {
			text = "-" + text
		}
		out = append(out, Word{Text: text, Role: RoleFilter})
	}
	for _, c := range p.Filter.Categories {
		out = append(out, Word{Text: "cat:" + c, Role: RoleFilter})
	}
	if p.SinceAgo > 0 || !p.Filter.SeenSince.IsZero() {
		out = append(out, Word{Text: "since:", Role: RoleFilter})
	}
	if !p.Filter.AnnouncedFrom.IsZero() {
		out = append(out, Word{Text: "date:" + p.Filter.AnnouncedFrom.Format(time.DateOnly), Role: RoleFilter})
	}
	return out
}

// textRole is the role of the free-text word words[i], decided in the
// order the search decides it (package search, state.textGroupsOf).
func textRole(words []Clause, i int, question bool) Role {
	if _, n := YearSpanAt(words, i); n > 0 {
		return RoleSpan
	}
	if MetaWordAt(words, i, question) {
		switch {
		case countOfPapers(words, i):
			return RoleCount
		case channelAt(words, i):
			return RoleChannel
		case listMarkerAt(words, i):
			return RoleMarker
		}
		return RoleFrame
	}
	if HowToVerbAt(words, i) {
		return RoleAction
	}
	return RoleTopic
}

// String renders q's words as runs of one role, and what else it asks
// ("question", "newest"): `question · frame(give me) count(3) frame(papers
// on) topic(world models)`. It is how the golden tests show a parse.
func (q *Query) String() string {
	p := q.parsed
	var b strings.Builder
	flag := func(on bool, name string) {
		if on {
			b.WriteString(name + " ")
		}
	}
	flag(p.Question, "question")
	flag(p.Newest, "newest")
	flag(p.Quantity, "quantity")
	flag(p.Defines, "defines")
	if b.Len() > 0 {
		b.WriteString("· ")
	}
	var run []string
	var role Role
	flush := func() {
		if len(run) > 0 {
			fmt.Fprintf(&b, "%s(%s) ", role, strings.Join(run, " "))
		}
		run = nil
	}
	for _, w := range q.Words() {
		if w.Role != role {
			flush()
			role = w.Role
		}
		if w.Phrase {
			w.Text = `"` + w.Text + `"`
		}
		run = append(run, w.Text)
	}
	flush()
	return strings.TrimSpace(b.String())
}
