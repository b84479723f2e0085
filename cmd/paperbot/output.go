package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"unicode"

	"github.com/paperbot/paperbot/search"
)

const (
	ansiBold  = "\x1b[1m"
	ansiReset = "\x1b[0m"
)

// printResults writes results for a terminal: headline, ID, authors, venue,
// then the answer (ask) or the highlighted snippet.
// closestShown is how many papers a "nothing relevant" answer still lists
// (the bot shows as many).
const closestShown = 3

func printResults(w io.Writer, res *search.Results, answerFirst, color bool) {
	if len(res.Results) == 0 {
		fmt.Fprintf(w, "No papers match “%s”. Try broader words, or fewer filters.\n", printable(res.Query))
		return
	}
	results := res.Results
	if res.NoMatch {
		// As in Slack: one line, then the few closest papers, not a list
		// that passes for answers.
		fmt.Fprintf(w, "Nothing really relevant for “%s”. The closest papers:\n\n", printable(res.Query))
		results = results[:min(len(results), closestShown)]
	}
	if len(res.Missing) > 0 && !res.NoMatch {
		// As in Slack: what the papers lack, before them.
		fmt.Fprintf(w, "None of these papers has “%s”.\n\n", printable(strings.Join(res.Missing, "” or “")))
	}
	// Plain text has no markup: "**" is Markdown, not something a pipe or
	// a log reader wants.
	open, close := "", ""
	if color {
		open, close = ansiBold, ansiReset
	}
	for i, r := range results {
		fmt.Fprintf(w, "%d. %s  [%s]\n", res.Offset+i+1, r.Headline, r.ID)
		if line := bylineOf(r.Paper); line != "" {
			fmt.Fprintf(w, "   %s\n", line)
		}
		switch {
		case answerFirst && r.Answer != "":
			fmt.Fprintf(w, "   > %s\n", r.Answer)
		case len(r.Snippet) > 0:
			fmt.Fprintf(w, "   %s\n", r.Snippet.Marked(open, close))
		case r.Answer != "":
			fmt.Fprintf(w, "   > %s\n", r.Answer)
		}
		if len(r.Matched) > 0 {
			fmt.Fprintf(w, "   matched: %s\n", strings.Join(r.Matched, ", "))
		} else if r.Meaning > 0 {
			fmt.Fprintf(w, "   matched: by meaning (no word in common)\n")
		}
		if r.URL != "" {
			fmt.Fprintf(w, "   %s\n", r.URL)
		}
		for _, u := range r.CodeURLs {
			fmt.Fprintf(w, "   code: %s\n", u)
		}
		fmt.Fprintln(w)
	}
	if more := res.Total - res.Offset - len(res.Results); more > 0 && !res.NoMatch {
		fmt.Fprintf(w, "%d more match; use -n to see more.\n", more)
	}
}

// printPaper writes one paper in full.
func printPaper(w io.Writer, p search.Paper) {
	fmt.Fprintf(w, "%s  [%s]\n", p.Headline, p.ID)
	if p.Title != "" && p.Title != p.Headline {
		fmt.Fprintf(w, "%s\n", p.Title)
	}
	if line := bylineOf(p); line != "" {
		fmt.Fprintln(w, line)
	}
	if p.URL != "" {
		fmt.Fprintln(w, p.URL)
	}
	for _, u := range p.CodeURLs {
		fmt.Fprintf(w, "code: %s\n", u)
	}
	if strings.TrimSpace(p.Abstract) == "" {
		fmt.Fprintln(w, "\n(No abstract: the corpus lists this paper by its title only.)")
		return
	}
	fmt.Fprintf(w, "\n%s\n", p.Abstract)
}

func bylineOf(p search.Paper) string {
	var parts []string
	if len(p.Authors) > 0 {
		parts = append(parts, shortAuthors(p.Authors))
	}
	venue := p.Venue
	if p.Year > 0 && !strings.Contains(venue, fmt.Sprint(p.Year)) {
		venue = strings.TrimSpace(venue + " " + fmt.Sprint(p.Year))
	}
	if venue != "" {
		parts = append(parts, venue)
	}
	return strings.Join(parts, " · ")
}

func shortAuthors(a []string) string {
	if len(a) > 3 {
		return strings.Join(a[:3], ", ") + " et al."
	}
	return strings.Join(a, ", ")
}

// isTerminal reports whether w is a character device such as a terminal
// (for output, /dev/null counts too, harmlessly).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// printable drops control characters (a pasted escape sequence must not
// drive the terminal).
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, s)
}
