package search

import "github.com/paperbot/paperbot/search/query"

// Query is a request's text parsed once (package query): the bot reads
// from it how many papers are asked for, then searches it (Request.Query)
// without parsing the text again.
type Query = query.Query

// Filter restricts a search by what a feed records of a paper (see
// query.Filter); the zero Filter restricts nothing.
type Filter = query.Filter

const opParse = "parse query"

// ParseQuery parses text in the query language. Errors are *Error of kind
// Invalid whose Msg says what is wrong and how to fix it: the error
// Index.Search returns for the same text.
func ParseQuery(text string) (*Query, error) {
	q, err := query.Parse(text)
	return q, parseError(err)
}

// parse returns r's query and its text: a copy of r.Query when the caller
// parsed it (a search sets the copy's answer and filter), else r.Text
// parsed now.
func (r Request) parse() (*query.Parsed, string, error) {
	if r.Query != nil {
		return r.Query.Parsed(), r.Query.Text(), nil
	}
	q, err := parseQuery(r.Text)
	return q, r.Text, err
}

// parseQuery parses s. Errors are *Error of kind Invalid whose Msg says what
// is wrong and how to fix it.
func parseQuery(s string) (*query.Parsed, error) {
	q, err := query.ParseText(s)
	return q, parseError(err)
}

// parseError is the parser's error as an *Error of kind Invalid. A type
// assertion, not errors.As, whose target escapes: an allocation per parse.
func parseError(err error) error {
	if qe, ok := err.(*query.Error); ok {
		return &Error{Op: opParse, Kind: Invalid, Msg: qe.Msg}
	}
	return err
}

// SimilarTarget returns the paper a request for papers like another names,
// and false when text is no such request (query.SimilarTarget).
func SimilarTarget(text string) (string, bool) { return query.SimilarTarget(text) }
