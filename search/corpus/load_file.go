package corpus

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
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

// loader parses the files of one load into raw records, which it hands
// to its pipeline in chunks; it keeps the parsing problems.
type loader struct {
	src     fileSource
	lim     Limits
	out     *pipeline  // nil: records are dropped
	pending []rawPaper // the chunk being filled
	added   int        // records handed on
	problemLog
	sidecars map[string]*sidecar // by directory
}

// flush hands the pending records to the pipeline.
func (l *loader) flush() {
	if len(l.pending) > 0 {
		l.out.send(l.pending)
		l.pending = nil
	}
}

// problemLog keeps the problems of a load, up to maxProblems, and counts
// the records skipped.
type problemLog struct {
	skipped  int
	problems []string
	omitted  int // problems beyond maxProblems
}

// problem records a problem; skip also counts a skipped record.
func (g *problemLog) problem(where, format string, args ...any) {
	if len(g.problems) >= maxProblems {
		g.omitted++
		return
	}
	g.problems = append(g.problems, where+": "+fmt.Sprintf(format, args...))
}

func (g *problemLog) skip(where, format string, args ...any) {
	g.skipped++
	g.problem(where, format, args...)
}

// headSize is how much of a file is read to recognise its format; it
// covers the first line that detectFormat reads (64 KiB).
const headSize = 256 << 10

// loadFile reads one corpus file, recognises its format from its head and
// adds its records. JSON arrays, JSON Lines, TSV and CSV are read record by
// record, so a file of any size takes memory for a record at a time; a
// JSON object (parsed whole anyway), text (small by nature) and a file
// whose head does not tell its format are read whole.
func (l *loader) loadFile(name string) error {
	rc, err := l.src.open(name)
	if err != nil {
		return unreadable(name, err)
	}
	defer rc.Close()
	br := bufio.NewReaderSize(rc, headSize)
	head, err := peekHead(br)
	if err != nil {
		return unreadable(name, err)
	}
	var data []byte // the whole file, when read whole
	if len(head) == headSize && (len(bytes.TrimSpace(head)) == 0 || detectFormat(name, head) == formatJSONObject) {
		// Blank so far, or one object so far (JSON Lines need two lines
		// starting with '{'): only the whole file tells.
		if data, err = io.ReadAll(br); err != nil {
			return unreadable(name, err)
		}
		head, br = data, bufio.NewReader(bytes.NewReader(data))
	}
	if len(bytes.TrimSpace(head)) == 0 {
		return invalidf(opLoad, "corpus file %s is empty", name)
	}
	if !mostlyText(head[:min(len(head), 4096)]) {
		return invalidf(opLoad, "corpus file %s is not a text file", name)
	}
	format := detectFormat(name, head)
	if data == nil && (format == formatJSONObject || format == formatText) {
		if data, err = io.ReadAll(br); err != nil {
			return unreadable(name, err)
		}
	}
	before, skippedBefore := l.added, l.skipped
	switch format {
	case formatJSONArray:
		err = l.loadJSONArray(name, br)
	case formatJSONObject:
		err = l.loadJSONObject(name, data)
	case formatJSONLines:
		err = l.loadJSONLines(name, br)
	case formatTSV:
		err = l.loadTSV(name, br)
	case formatCSV:
		err = l.loadCSV(name, br)
	case formatText:
		err = l.loadText(name, string(data))
	default:
		return invalidf(opLoad, "corpus file %s has an unknown format: expected a JSON array or JSON Lines of paper records, "+
			"tab-separated values, or a .txt file with a header line and one abstract per paragraph", name)
	}
	if err != nil {
		return err
	}
	// Read to the end, so a stamping source hashes the whole file.
	if _, err := io.Copy(io.Discard, br); err != nil {
		return unreadable(name, err)
	}
	if l.added == before && l.skipped > skippedBefore {
		return invalidf(opLoad, "corpus file %s has no usable paper (%d records skipped; first: %s)",
			name, l.skipped-skippedBefore, l.firstProblem(name))
	}
	return nil
}

// peekHead returns the first headSize bytes of r (fewer when the file is
// shorter) after dropping a UTF-8 byte order mark; they stay unread.
func peekHead(r *bufio.Reader) ([]byte, error) {
	head, err := r.Peek(headSize)
	if bytes.HasPrefix(head, []byte("\xef\xbb\xbf")) {
		if _, err := r.Discard(3); err != nil {
			return nil, err
		}
		head, err = r.Peek(headSize)
	}
	if err == io.EOF {
		err = nil
	}
	return head, err
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
