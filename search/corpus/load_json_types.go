package corpus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// jsonShape is what a known field of a paper record may hold.
type jsonShape int

const (
	shapeText  jsonShape = iota // a string (or a number, for IDs and venues)
	shapeNames                  // a list of names or objects with a name, or a separated string
	shapeYear                   // a whole number or a string of one
)

// jsonFieldShapes lists the fields whose type is checked: a value of another
// type is a mistake in the export (authors: 12345, year: "abc") that would
// otherwise turn into nonsense quietly.
var jsonFieldShapes = map[string]jsonShape{
	"title": shapeText, "abstract": shapeText, "summary": shapeText,
	"venue": shapeText, "conference": shapeText, "journal": shapeText,
	"authors": shapeNames, "author": shapeNames,
	"keywords": shapeNames, "tags": shapeNames,
	"year": shapeYear,
}

// dropWrongTypes removes every checked field of rec whose value has the
// wrong type, reporting each at where; the rest of the record still loads
// (a paper missing its year is better than no paper).
func (l *loader) dropWrongTypes(where string, rec jsonRecord) {
	var keys []string
	for k := range rec {
		if _, ok := jsonFieldShapes[k]; ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		if want := wrongShape(jsonFieldShapes[k], rec[k]); want != "" {
			l.problem(where, "field %q is %s; expected %s; field ignored", k, describeJSON(rec[k]), want)
			delete(rec, k)
		}
	}
}

// wrongShape returns what the field should have held, or "" when v fits
// (null and empty values fit: they mean "not given").
func wrongShape(s jsonShape, v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 || string(v) == "null" || string(v) == `""` {
		return ""
	}
	switch c := v[0]; s {
	case shapeText:
		if c == '"' || c == '-' || (c >= '0' && c <= '9') {
			return ""
		}
		return "a string"
	case shapeNames:
		if c == '"' || c == '[' {
			return ""
		}
		return "a list of names or a string"
	case shapeYear:
		if _, err := strconv.Atoi(strings.TrimSpace(strings.Trim(string(v), `"`))); err == nil {
			return ""
		}
		return "a year such as 2024"
	}
	return ""
}

// describeJSON names a raw value's type, with a short excerpt.
func describeJSON(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	kind := "a number"
	switch {
	case len(v) == 0:
		return "empty"
	case v[0] == '"':
		kind = "a string"
	case v[0] == '{':
		kind = "an object"
	case v[0] == '[':
		kind = "a list"
	case v[0] == 't' || v[0] == 'f':
		kind = "a boolean"
	}
	return fmt.Sprintf("%s (%s)", kind, cutAtWord(string(v), 30))
}
