package corpus

import (
	"bufio"
	"strconv"
	"strings"
)

// tsvLayout maps paper fields to the columns of a tab-separated file.
type tsvLayout struct {
	name   string
	cols   int            // number of columns every row must have
	fields map[string]int // field name (see columnAliases) -> column
}

// tsvLayouts are the header-less layouts the loader recognises. A file
// without a header row is matched by its number of columns, then checked
// against its first rows: URL columns hold URLs, the abstract is the longest
// column by far, the venue names a year and authors are ";"-separated names.
// Other layouts need a header row naming their columns (see columnAliases).
var tsvLayouts = []tsvLayout{
	{
		// github.com/dotd/NeurIPS2024Scrape ConferenceTables: id, title,
		// authors, keywords, primary_area, venue, pdf, supplementary_material,
		// TLDR, spotlight, abstract.
		name: "OpenReview scrape with id (11 columns)", cols: 11,
		fields: map[string]int{"id": 0, "title": 1, "authors": 2, "keywords": 3, "venue": 5, "pdf": 6, "abstract": 10},
	},
	{
		// The same scraper's older schema: title, authors, keywords,
		// primary_area, venue, pdf, supplementary_material, TLDR, abstract.
		name: "OpenReview scrape without id (9 columns)", cols: 9,
		fields: map[string]int{"title": 0, "authors": 1, "keywords": 2, "venue": 4, "pdf": 5, "abstract": 8},
	},
}

// columnAliases maps the column names a header row may use to paper fields.
var columnAliases = map[string]string{
	"title": "title", "paper_title": "title", "name": "title",
	"abstract": "abstract", "summary": "abstract", "abstract_text": "abstract",
	"authors": "authors", "author": "authors", "author_names": "authors", "author_site": "authors",
	"url": "url", "link": "url", "site": "url", "forum": "url", "page": "url", "paper_url": "url",
	"id": "id", "paper_id": "id",
	"pdf": "pdf", "pdf_url": "pdf",
	"venue": "venue", "conference": "venue", "booktitle": "venue", "status": "status",
	"year":     "year",
	"keywords": "keywords", "keyword": "keywords", "tags": "keywords",
	"code": "code", "github": "code", "code_url": "code", "project": "code", "project_page": "code",
}

// layoutSample is how many rows a header-less layout is checked against.
const layoutSample = 20

// loadTSV reads tab-separated values, split on tabs with no quoting (scraped
// fields contain bare '"'), one record per line; a missing final newline and
// CRLF line ends are fine. A first row made of known column names is a
// header; otherwise the layout must be one of tsvLayouts, checked against
// the first layoutSample rows (the only ones held at once). Rows with the
// wrong number of columns are skipped.
func (l *loader) loadTSV(name string, r *bufio.Reader) error {
	lines := lineReader{r: r}
	lineNo := 0
	next := func() ([]string, int, bool) {
		for {
			b, ok := lines.next()
			if !ok {
				return nil, 0, false
			}
			lineNo++
			line := strings.TrimRight(string(b), "\r\n")
			if strings.TrimSpace(line) != "" {
				return strings.Split(line, "\t"), lineNo, true
			}
		}
	}
	var rows [][]string
	var lineNos []int
	for len(rows) < layoutSample {
		cells, n, ok := next()
		if !ok {
			break
		}
		rows, lineNos = append(rows, cells), append(lineNos, n)
	}
	if lines.err != nil {
		return unreadable(name, lines.err)
	}
	if len(rows) == 0 { // only blank lines: loadFile rules that out
		return invalidf(opLoad, "corpus file %s is empty", name)
	}
	layout, header, err := tsvLayoutOf(name, rows)
	if err != nil {
		return err
	}
	if header {
		rows, lineNos = rows[1:], lineNos[1:]
	}
	ctx := l.jsonContext(name)
	row := func(cells []string, n int) {
		where := locLine(name, n)
		if len(cells) != layout.cols {
			l.skip(where, "has %d tab-separated columns, want %d (%s)", len(cells), layout.cols, layout.name)
			return
		}
		l.addRow(ctx, where, layout, cells)
	}
	for i, cells := range rows {
		row(cells, lineNos[i])
	}
	for {
		cells, n, ok := next()
		if !ok {
			break
		}
		row(cells, n)
	}
	if lines.err != nil {
		return unreadable(name, lines.err)
	}
	return nil
}

// tsvLayoutOf finds the layout of rows: from a header row, or by matching a
// header-less layout. It reports whether rows[0] is a header.
func tsvLayoutOf(name string, rows [][]string) (tsvLayout, bool, error) {
	if lay, ok := headerLayout(rows[0]); ok {
		return lay, true, nil
	}
	for _, lay := range tsvLayouts {
		if len(rows[0]) == lay.cols && lay.matches(rows) {
			return lay, false, nil
		}
	}
	return tsvLayout{}, false, invalidf(opLoad, "%s: line 1: %d tab-separated columns without a header row, in no layout the loader knows; "+
		"add a header row naming the columns (title, abstract, authors, url, venue, year, keywords)", name, len(rows[0]))
}

// headerLayout reads a header row: every non-empty cell a known column name,
// and title or abstract among them.
func headerLayout(cells []string) (tsvLayout, bool) {
	lay := tsvLayout{name: "header row", cols: len(cells), fields: map[string]int{}}
	for i, c := range cells {
		c = strings.ToLower(strings.TrimSpace(c))
		if c == "" {
			continue
		}
		field, ok := columnAliases[c]
		if !ok {
			if strings.ContainsAny(c, " ./:") || len(c) > 40 {
				return tsvLayout{}, false // a data row
			}
			continue // an unknown column, ignored
		}
		if _, dup := lay.fields[field]; !dup {
			lay.fields[field] = i
		}
	}
	_, t := lay.fields["title"]
	_, a := lay.fields["abstract"]
	return lay, t || a
}

// matches checks a header-less layout against the first rows of a file.
func (lay tsvLayout) matches(rows [][]string) bool {
	n, urls, urlOK, venues, venueOK := 0, 0, 0, 0, 0
	titleLen, abstractLen := 0, 0
	for _, cells := range rows[:min(len(rows), layoutSample)] {
		if len(cells) != lay.cols {
			continue
		}
		n++
		for _, f := range []string{"id", "url", "pdf"} {
			if i, ok := lay.fields[f]; ok && cells[i] != "" {
				urls++
				if looksLikeURL(cells[i]) {
					urlOK++
				}
			}
		}
		if i, ok := lay.fields["venue"]; ok && cells[i] != "" {
			venues++
			if yearIn(cells[i]) != 0 {
				venueOK++
			}
		}
		titleLen += len(cells[lay.fields["title"]])
		abstractLen += len(cells[lay.fields["abstract"]])
	}
	return n > 0 && urlOK*10 >= urls*9 && venueOK*10 >= venues*9 &&
		abstractLen >= 2*titleLen && abstractLen >= 100*n
}

// addRow turns one row of a tabular file into a raw paper.
func (l *loader) addRow(ctx jsonContext, where string, lay tsvLayout, cells []string) {
	get := func(field string) string {
		if i, ok := lay.fields[field]; ok && i < len(cells) {
			return strings.TrimSpace(cells[i])
		}
		return ""
	}
	r := rawPaper{
		src:      where,
		title:    get("title"),
		abstract: get("abstract"),
		authors:  splitNames(get("authors")),
		keywords: splitKeywords(get("keywords")),
	}
	for _, f := range []string{"url", "id", "pdf"} {
		if u := get(f); looksLikeURL(u) {
			r.url = u
			break
		}
	}
	if u := get("code"); looksLikeURL(u) {
		r.links = append(r.links, u)
	}
	r.venue = get("venue")
	if r.venue == "" && yearIn(get("status")) != 0 {
		r.venue = get("status")
	}
	if r.venue == "" {
		r.venue = ctx.venue
	}
	r.venue = normalizeVenue(r.venue)
	if y, err := strconv.Atoi(get("year")); err == nil && y > 1900 && y < 2200 {
		r.year = y
	} else if get("year") != "" {
		l.problem(where, "year %q is not a year; ignored", cutAtWord(get("year"), 20))
	}
	if r.year == 0 {
		r.year = yearIn(r.venue)
	}
	if r.year == 0 {
		r.year = ctx.year
	}
	l.add(r)
}
