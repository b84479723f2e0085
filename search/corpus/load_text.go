package corpus

import (
	"strings"
	"unicode"
)

// maxHeaderLen is the longest first line read as a collection header.
const maxHeaderLen = 200

// loadText reads the seed text format: a header line naming the collection
// ("ICML 2025 Papers" gives venue "ICML 2025" and year 2025), then one
// abstract per paragraph, paragraphs separated by blank lines. A paragraph
// may span several lines. The first paragraph is the header only when it is
// a single line of at most maxHeaderLen characters that does not read like a
// sentence; otherwise the file has no header and every paragraph is an
// abstract. Titles, authors and URLs come from the metadata.tsv sidecar, if
// any, matched by file name and 1-based paragraph number (header excluded).
func (l *loader) loadText(name, data string) error {
	meta, err := l.sidecarFor(name)
	if err != nil {
		return err
	}
	base := l.src.base(name)
	var (
		venue     string
		year      int
		para      int
		text      []string
		startLine int
		first     = true
	)
	flush := func() {
		if len(text) == 0 {
			return
		}
		joined := strings.Join(text, " ")
		isHeader := first && len(text) == 1 && isHeaderLine(joined)
		first, text = false, text[:0]
		if isHeader {
			venue, year = normalizeVenue(joined), yearIn(joined)
			return
		}
		para++
		if !readsLikeProse(joined) {
			// Any text file parses as this format; a paragraph of code,
			// config or tables is not an abstract.
			l.skip(locLine(name, startLine), "paragraph does not read like an abstract (too few words); skipped")
			return
		}
		r := rawPaper{src: locLine(name, startLine), abstract: joined, venue: venue, year: year}
		if m, ok := meta.lookup(base, para); ok {
			r.title, r.authors, r.url = m.title, m.authors, m.url
		}
		l.add(r)
	}
	lineNo := 0
	for line := range strings.Lines(data) {
		lineNo++
		line = strings.TrimSpace(line)
		if line == "" {
			flush()
			continue
		}
		if len(text) == 0 {
			startLine = lineNo
		}
		text = append(text, line)
	}
	flush()
	meta.reportUnused(l, base, para)
	return nil
}

// isHeaderLine reports whether a first line names a collection rather than
// being a one-line abstract.
func isHeaderLine(s string) bool {
	return len(s) <= maxHeaderLen && !strings.HasSuffix(s, ".") && !strings.Contains(s, ". ")
}

// readsLikeProse reports whether a paragraph is mostly words: at least
// minProseWords tokens that are (punctuation around them aside) at least 80%
// letters, and such words at least 60% of all tokens.
func readsLikeProse(s string) bool {
	tokens := strings.Fields(s)
	words := 0
	for _, t := range tokens {
		t = strings.TrimFunc(t, unicode.IsPunct)
		letters, runes := 0, 0
		for _, r := range t {
			runes++
			if unicode.IsLetter(r) {
				letters++
			}
		}
		if letters >= 2 && letters*10 >= runes*8 {
			words++
		}
	}
	return words >= minProseWords && words*10 >= len(tokens)*6
}

// minProseWords is the fewest words a plain-text abstract has.
const minProseWords = 8
