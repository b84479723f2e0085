package corpus

import (
	"encoding/csv"
	"errors"
	"io"
)

// loadCSV reads comma-separated values with a header row naming the columns
// (see columnAliases), a record at a time; quoted fields may span lines. Rows with a different
// number of columns than the header are skipped.
func (l *loader) loadCSV(name string, in io.Reader) error {
	r := csv.NewReader(in)
	r.LazyQuotes = true
	r.FieldsPerRecord = -1
	head, err := r.Read()
	if err != nil {
		return csvError(name, err)
	}
	lay, ok := headerLayout(head)
	if !ok {
		return invalidf(opLoad, "%s: line 1: a comma-separated file needs a header row naming its columns (title, abstract, authors, url, venue, year, keywords)", name)
	}
	ctx := l.jsonContext(name)
	for {
		cells, err := r.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return csvError(name, err)
		}
		line, _ := r.FieldPos(0)
		where := locLine(name, line)
		if len(cells) != lay.cols {
			l.skip(where, "has %d columns, the header has %d", len(cells), lay.cols)
			continue
		}
		l.addRow(ctx, where, lay, cells)
	}
}

func csvError(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &Error{Op: opLoad, Kind: Invalid, Msg: locLine(name, pe.Line) + ": malformed CSV: " + pe.Err.Error(), Err: err}
	}
	return &Error{Op: opLoad, Kind: Invalid, Msg: name + ": malformed CSV", Err: err}
}
