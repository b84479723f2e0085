package corpus

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// jsonRecord is one paper record of a JSON export, field name to raw value.
type jsonRecord map[string]json.RawMessage

// loadJSONArray reads a JSON array of paper records, one at a time. A
// syntax error fails the file, naming the line, column and record; a record
// that is not an object, or has no abstract, is skipped.
func (l *loader) loadJSONArray(name string, r io.Reader) error {
	t := &lineTracker{r: r}
	dec := json.NewDecoder(t)
	if _, err := dec.Token(); err != nil { // the opening '['
		return l.jsonArrayError(name, err)
	}
	ctx := l.jsonContext(name)
	n := 0
	for dec.More() {
		n++
		start := dec.InputOffset()
		var rec jsonRecord
		err := dec.Decode(&rec)
		var te *json.UnmarshalTypeError
		if err != nil && !errors.As(err, &te) {
			return l.jsonArrayError(name, err)
		}
		where := fmt.Sprintf("%s#%d (line %d)", name, n, t.at(t.skipSpaceComma(start)))
		if err != nil || rec == nil {
			// The decoder has read past the value: the next record is intact.
			l.skip(where, "record is not a JSON object")
			continue
		}
		l.addJSON(ctx, locRecord(name, n), where, rec)
	}
	if _, err := dec.Token(); err != nil { // the closing ']'
		return l.jsonArrayError(name, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return l.jsonArrayError(name, err)
	}
	return nil
}

// jsonArrayError describes the error a streaming read of a JSON array met
// as a read of the whole file does (line, column, record): it reads the
// file again, whole, which only a malformed file costs. Only the error
// counts: the load fails, so what the file held is dropped.
func (l *loader) jsonArrayError(name string, streamErr error) error {
	data, err := l.src.readFile(name)
	if err != nil {
		return unreadable(name, err)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	again := &loader{src: l.src, lim: l.lim} // no pipeline: records are dropped
	if err := again.loadJSONArrayData(name, data); err != nil {
		return err
	}
	// The file changed between the two reads.
	return &Error{Op: opLoad, Kind: Invalid, Msg: name + ": malformed JSON", Err: streamErr}
}

// loadJSONArrayData is loadJSONArray over a file in memory.
func (l *loader) loadJSONArrayData(name string, data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // the opening '['
		return jsonError(name, data, dec.InputOffset(), 0, err)
	}
	ctx := l.jsonContext(name)
	lines := lineCounter{data: data}
	n := 0
	for dec.More() {
		n++
		start := dec.InputOffset()
		var rec jsonRecord
		err := dec.Decode(&rec)
		where := fmt.Sprintf("%s#%d (line %d)", name, n, lines.at(skipSpaceComma(data, start)))
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &te) || (err == nil && rec == nil):
			// The decoder has read past the value: the next record is intact.
			l.skip(where, "record is not a JSON object")
		case err != nil:
			return jsonError(name, data, recordErrorOffset(data, skipSpaceComma(data, start)), n, err)
		default:
			l.addJSON(ctx, locRecord(name, n), where, rec)
		}
	}
	if _, err := dec.Token(); err != nil { // the closing ']'
		return jsonError(name, data, dec.InputOffset(), n, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return invalidf(opLoad, "%s: line %d: unexpected data after the closing ] of the JSON array", name, lineAt(data, dec.InputOffset()))
	}
	return nil
}

// loadJSONObject reads one pretty-printed JSON object: either a wrapper whose
// first array-of-objects field ("papers", "data", ...) holds the records, or
// a single paper record.
func (l *loader) loadJSONObject(name string, data []byte) error {
	var obj jsonRecord
	if err := json.Unmarshal(data, &obj); err != nil {
		var se *json.SyntaxError
		off := int64(len(data))
		if errors.As(err, &se) {
			off = max(0, se.Offset-1)
		}
		return jsonError(name, data, off, 0, err)
	}
	for _, key := range []string{"papers", "data", "records", "items", "results", "notes"} {
		if v, ok := obj[key]; ok && bytes.HasPrefix(bytes.TrimSpace(v), []byte("[")) {
			return l.loadJSONArrayData(name+" ("+key+")", v)
		}
	}
	l.addJSON(l.jsonContext(name), locRecord(name, 1), name+"#1", obj)
	return nil
}

// loadJSONLines reads one JSON object per line. A line that is not valid
// JSON is skipped with a problem naming it; the other lines still load.
func (l *loader) loadJSONLines(name string, r *bufio.Reader) error {
	ctx := l.jsonContext(name)
	lines := lineReader{r: r}
	lineNo := 0
	for {
		line, ok := lines.next()
		if !ok {
			break
		}
		lineNo++
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		where := locLine(name, lineNo)
		var rec jsonRecord
		var te *json.UnmarshalTypeError
		switch err := json.Unmarshal(line, &rec); {
		case errors.As(err, &te) || (err == nil && rec == nil):
			l.skip(where, "record is not a JSON object")
		case err != nil:
			l.skip(where, "malformed JSON: %v", err)
		default:
			l.addJSON(ctx, where, where, rec)
		}
	}
	if lines.err != nil {
		return unreadable(name, lines.err)
	}
	return nil
}

// jsonContext holds what a file tells about all its records: the venue and
// year its name implies.
type jsonContext struct {
	venue string
	year  int
}

func (l *loader) jsonContext(name string) jsonContext {
	v := venueFromFileName(l.src.base(name))
	return jsonContext{venue: v, year: yearIn(v)}
}

// addJSON turns one JSON record into a raw paper; src goes into
// Paper.Source, where into problems.
func (l *loader) addJSON(ctx jsonContext, src, where string, rec jsonRecord) {
	l.dropWrongTypes(where, rec)
	r := rawPaper{
		src:      src,
		title:    rec.text("title", "name"),
		abstract: rec.text("abstract", "summary", "abstract_text", "paperAbstract", "text"),
		authors:  rec.list(splitNames, "authors", "author", "author_site", "author_names", "creators"),
		keywords: rec.list(splitKeywords, "keywords", "keyword", "tags"),
		url:      rec.pageURL(),
		year:     rec.year(),
	}
	for _, k := range []string{"github", "code", "code_url", "code_link", "repository", "project", "project_page", "project_url"} {
		if u := rec.text(k); looksLikeURL(u) {
			r.links = append(r.links, u)
		}
	}
	r.venue = rec.text("venue", "conference", "booktitle", "journal")
	if r.venue == "" && ctx.venue == "" && rec.arxivID() != "" {
		r.venue = "arXiv"
	}
	if r.venue == "" {
		// Paper Copilot lists give only status ("Poster") and track ("main"):
		// the venue is the file's ("nips2018.json" -> "NeurIPS 2018"), or
		// status when it names one ("ICLR 2024 Poster").
		if s := rec.text("status"); yearIn(s) != 0 {
			r.venue = s
		} else {
			r.venue = ctx.venue
		}
	}
	r.venue = normalizeVenue(r.venue)
	if r.year == 0 {
		r.year = yearIn(r.venue)
	}
	if r.year == 0 {
		r.year = ctx.year
	}
	if r.title == "" && r.abstract == "" && len(rec) > 0 && !rec.hasAny("title", "abstract", "summary") {
		l.skip(where, "record has no title or abstract field (fields: %s)", strings.Join(rec.keys(5), ", "))
		return
	}
	l.add(r)
}

// text returns the first of keys holding a non-empty string or number.
func (r jsonRecord) text(keys ...string) string {
	for _, k := range keys {
		v, ok := r[k]
		if !ok {
			continue
		}
		if s := scalarText(v); s != "" {
			return s
		}
	}
	return ""
}

func scalarText(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return ""
	}
	switch v[0] {
	case '"':
		var s string
		if json.Unmarshal(v, &s) == nil {
			return strings.TrimSpace(s)
		}
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return string(v)
	}
	return ""
}

// list returns the first non-empty list field of keys: a JSON list of
// strings or of objects with a name, or a string that split separates.
func (r jsonRecord) list(split func(string) []string, keys ...string) []string {
	for _, k := range keys {
		v, ok := r[k]
		if !ok {
			continue
		}
		if s := scalarText(v); s != "" {
			if out := split(s); len(out) > 0 {
				return out
			}
			continue
		}
		var list []json.RawMessage
		if json.Unmarshal(v, &list) != nil {
			continue
		}
		var out []string
		for _, item := range list {
			if s := scalarText(item); s != "" {
				out = append(out, s)
				continue
			}
			var obj jsonRecord
			if json.Unmarshal(item, &obj) == nil {
				if s := obj.text("name", "full_name", "fullname", "display_name"); s != "" {
					out = append(out, s)
				}
			}
		}
		if out = cleanList(out); len(out) > 0 {
			return out
		}
	}
	return nil
}

// pageURL prefers a paper's page over its PDF: url, site, link, forum, a
// URL-looking id, the open-access page, then pdf; failing those, the arXiv
// abstract page of an arXiv ID, then the DOI's resolver link.
func (r jsonRecord) pageURL() string {
	for _, k := range []string{"url", "site", "link", "forum", "id", "oa", "html_url", "pdf", "pdf_url"} {
		if u := r.text(k); looksLikeURL(u) {
			return u
		}
	}
	if id := r.arxivID(); id != "" {
		return "https://arxiv.org/abs/" + id
	}
	if doi := strings.TrimSpace(r.text("doi")); strings.HasPrefix(doi, "10.") && !strings.ContainsAny(doi, " <>|") {
		return "https://doi.org/" + doi
	}
	return ""
}

// arxivIDPattern matches new-style (2106.09685, 2106.09685v2) and old-style
// (hep-th/9901001, math.GT/0309136) arXiv identifiers.
var arxivIDPattern = regexp.MustCompile(`^(\d{4}\.\d{4,5}|[a-z-]+(\.[A-Z]{2})?/\d{7})(v\d+)?$`)

// arxivID is the record's arXiv identifier (arXiv's own metadata export
// keeps it in "id"), or "".
func (r jsonRecord) arxivID() string {
	for _, k := range []string{"arxiv_id", "arxiv", "id"} {
		if id := strings.TrimSpace(r.text(k)); arxivIDPattern.MatchString(id) {
			return id
		}
	}
	return ""
}

// year reads "year" as a number or string, else the year of a date field,
// else the year a new-style arXiv ID encodes (2106.09685: June 2021).
func (r jsonRecord) year() int {
	if s := r.text("year"); s != "" {
		if y, err := strconv.Atoi(strings.TrimSpace(s)); err == nil && y > 1900 && y < 2200 {
			return y
		}
	}
	if y := yearIn(r.text("date", "published", "publication_date", "published_date")); y != 0 {
		return y
	}
	if id := r.arxivID(); len(id) > 4 && id[4] == '.' {
		if yy, err := strconv.Atoi(id[:2]); err == nil {
			return 2000 + yy
		}
	}
	return yearIn(r.text("update_date", "created"))
}

func (r jsonRecord) hasAny(keys ...string) bool {
	for _, k := range keys {
		if _, ok := r[k]; ok {
			return true
		}
	}
	return false
}

// keys lists up to n field names, sorted, for messages.
func (r jsonRecord) keys(n int) []string {
	var ks []string
	for k := range r {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	if len(ks) > n {
		ks = append(ks[:n], "...")
	}
	return ks
}

// recordErrorOffset finds where a JSON syntax error lies in the record that
// starts at start, by decoding it alone (a streaming decoder's offsets are
// not absolute). A record that decodes fine alone is followed by the error.
func recordErrorOffset(data []byte, start int64) int64 {
	sub := json.NewDecoder(bytes.NewReader(data[start:]))
	var v json.RawMessage
	err := sub.Decode(&v)
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		return start + max(0, se.Offset-1)
	case err == nil:
		return start + sub.InputOffset()
	}
	return int64(len(data))
}

// jsonError describes a JSON error at byte offset off by file, line, column
// and record (rec 0: not inside a record).
func jsonError(name string, data []byte, off int64, rec int, err error) error {
	line, col := lineCol(data, off)
	where := fmt.Sprintf("%s: line %d, column %d", name, line, col)
	if rec > 0 {
		where += fmt.Sprintf(" (record %d)", rec)
	}
	msg := err.Error()
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		msg = "the JSON ends too early"
	}
	return &Error{Op: opLoad, Kind: Invalid, Msg: where + ": malformed JSON: " + msg, Err: err}
}

// lineAt returns the 1-based line of byte offset off in data.
func lineAt(data []byte, off int64) int {
	line, _ := lineCol(data, off)
	return line
}

// lineCounter finds the lines of increasing offsets in one pass over data.
type lineCounter struct {
	data []byte
	off  int64
	line int
}

func (lc *lineCounter) at(off int64) int {
	off = max(0, min(off, int64(len(lc.data))))
	if off < lc.off {
		lc.off, lc.line = 0, 0
	}
	lc.line += bytes.Count(lc.data[lc.off:off], []byte("\n"))
	lc.off = off
	return lc.line + 1
}

func lineCol(data []byte, off int64) (line, col int) {
	off = max(0, min(off, int64(len(data))))
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// skipSpaceComma advances off past white space and a separating comma.
func skipSpaceComma(data []byte, off int64) int64 {
	for off < int64(len(data)) && (data[off] == ' ' || data[off] == '\n' || data[off] == '\r' || data[off] == '\t' || data[off] == ',') {
		off++
	}
	return off
}
