package corpus

import (
	"errors"
	"io/fs"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// sidecarName is the metadata file read beside text corpus files.
const sidecarName = "metadata.tsv"

// sidecar is a parsed metadata.tsv: tab-separated, with a header row naming
// at least the columns file and paragraph (1-based position of the abstract
// in that file, header line excluded), and any of title, authors
// (comma-separated; ";" also accepted) and url. A nil *sidecar has no rows.
type sidecar struct {
	name string
	rows map[string]map[int]*sidecarRow // by file base name, then paragraph
}

type sidecarRow struct {
	title   string
	authors []string
	url     string
	line    int
	used    bool
}

// sidecarFor returns the sidecar beside name, reading it once per directory.
func (l *loader) sidecarFor(name string) (*sidecar, error) {
	dir := l.src.dir(name)
	if sc, ok := l.sidecars[dir]; ok {
		return sc, nil
	}
	if l.sidecars == nil {
		l.sidecars = make(map[string]*sidecar)
	}
	path := l.src.join(dir, sidecarName)
	data, err := l.src.readFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		l.sidecars[dir] = nil
		return nil, nil
	case err != nil:
		return nil, &Error{Op: opLoad, Kind: Invalid, Msg: "cannot read " + path, Err: err}
	}
	sc, err := l.parseSidecar(path, string(data))
	if err != nil {
		return nil, err
	}
	l.sidecars[dir] = sc
	return sc, nil
}

func (l *loader) parseSidecar(path, data string) (*sidecar, error) {
	sc := &sidecar{name: path, rows: make(map[string]map[int]*sidecarRow)}
	col := map[string]int{}
	lineNo := 0
	for line := range strings.Lines(data) {
		lineNo++
		line = strings.TrimRight(line, "\r\n")
		if strings.TrimSpace(line) == "" {
			continue
		}
		cells := strings.Split(line, "\t")
		if len(col) == 0 {
			for i, c := range cells {
				col[strings.ToLower(strings.TrimSpace(c))] = i
			}
			_, hasFile := col["file"]
			_, hasPara := col["paragraph"]
			if !hasFile || !hasPara {
				return nil, invalidf(opLoad, "%s: the first line must be a header row naming the columns file, paragraph, title, authors, url", locLine(path, lineNo))
			}
			continue
		}
		get := func(name string) string {
			if i, ok := col[name]; ok && i < len(cells) {
				return strings.TrimSpace(cells[i])
			}
			return ""
		}
		file := get("file")
		para, err := strconv.Atoi(get("paragraph"))
		if file == "" || err != nil || para < 1 {
			l.problem(locLine(path, lineNo), "needs a file name and a paragraph number (1, 2, ...)")
			continue
		}
		if sc.rows[file] == nil {
			sc.rows[file] = make(map[int]*sidecarRow)
		}
		if _, dup := sc.rows[file][para]; dup {
			l.problem(locLine(path, lineNo), "repeats paragraph %d of %s; the first row is used", para, file)
			continue
		}
		sc.rows[file][para] = &sidecarRow{title: get("title"), authors: splitNames(get("authors")), url: get("url"), line: lineNo}
	}
	return sc, nil
}

// lookup returns the row for paragraph para of file base, marking it used.
func (sc *sidecar) lookup(base string, para int) (sidecarRow, bool) {
	if sc == nil {
		return sidecarRow{}, false
	}
	row, ok := sc.rows[base][para]
	if !ok {
		return sidecarRow{}, false
	}
	row.used = true
	return *row, true
}

// reportUnused notes rows for paragraphs that file base does not have, which
// usually means the sidecar and the file disagree.
func (sc *sidecar) reportUnused(l *loader, base string, paragraphs int) {
	if sc == nil {
		return
	}
	for _, para := range slices.Sorted(maps.Keys(sc.rows[base])) {
		if row := sc.rows[base][para]; !row.used {
			l.problem(locLine(sc.name, row.line), "%s has no paragraph %d (it has %d)", base, para, paragraphs)
		}
	}
}

func locLine(name string, line int) string { return name + ":" + strconv.Itoa(line) }

func locRecord(name string, rec int) string { return name + "#" + strconv.Itoa(rec) }
