package corpus

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// maxProblems caps Corpus.Problems so one bad file cannot flood the log.
const maxProblems = 50

// rawPaper is one record as read from a file, before clean-up.
type rawPaper struct {
	src      string // "file:line" or "file#record"
	title    string
	abstract string
	authors  []string
	venue    string
	year     int
	url      string
	links    []string // code or project links given as fields
	keywords []string
}

// loader accumulates the records and problems of one LoadFS/LoadFiles call.
type loader struct {
	src      fileSource
	lim      Limits
	raws     []rawPaper
	skipped  int
	problems []string
	omitted  int
	sidecars map[string]*sidecar // by directory
}

// problem records a problem; skip also counts a skipped record.
func (l *loader) problem(where, format string, args ...any) {
	if len(l.problems) >= maxProblems {
		l.omitted++
		return
	}
	l.problems = append(l.problems, where+": "+fmt.Sprintf(format, args...))
}

func (l *loader) skip(where, format string, args ...any) {
	l.skipped++
	l.problem(where, format, args...)
}

// loadFile reads one corpus file, recognises its format and adds its records.
func (l *loader) loadFile(name string) error {
	data, err := l.src.readFile(name)
	if err != nil {
		return unreadable(name, err)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(data)) == 0 {
		return invalidf(opLoad, "corpus file %s is empty", name)
	}
	head := data[:min(len(data), 4096)]
	if !mostlyText(head) {
		return invalidf(opLoad, "corpus file %s is not a text file", name)
	}
	before, skippedBefore := len(l.raws), l.skipped
	switch format := detectFormat(name, data); format {
	case formatJSONArray:
		err = l.loadJSONArray(name, data)
	case formatJSONObject:
		err = l.loadJSONObject(name, data)
	case formatJSONLines:
		err = l.loadJSONLines(name, data)
	case formatTSV:
		err = l.loadTSV(name, string(data))
	case formatCSV:
		err = l.loadCSV(name, data)
	case formatText:
		err = l.loadText(name, string(data))
	default:
		return invalidf(opLoad, "corpus file %s has an unknown format: expected a JSON array or JSON Lines of paper records, "+
			"tab-separated values, or a .txt file with a header line and one abstract per paragraph", name)
	}
	if err != nil {
		return err
	}
	if len(l.raws) == before && l.skipped > skippedBefore {
		return invalidf(opLoad, "corpus file %s has no usable paper (%d records skipped; first: %s)",
			name, l.skipped-skippedBefore, l.firstProblem(name))
	}
	return nil
}

func (l *loader) firstProblem(name string) string {
	for _, p := range l.problems {
		if strings.HasPrefix(p, name) {
			return p
		}
	}
	return "not listed, the problem list is full"
}

// mostlyText reports whether b looks like text rather than binary data: no
// NUL byte, few control characters and few invalid UTF-8 sequences (b may
// end inside a character).
func mostlyText(b []byte) bool {
	bad, total := 0, len(b)
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		switch {
		case r == 0:
			return false
		case r == utf8.RuneError && n == 1 && len(b) >= utf8.UTFMax, r < 0x20 && r != '\n' && r != '\r' && r != '\t':
			bad++
		}
		b = b[n:]
	}
	return bad*20 <= total
}
