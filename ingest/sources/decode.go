package sources

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// looksHTML reports whether body is an HTML page (a browser check, an error
// page, a captive portal) rather than the XML or JSON a parser expects.
func looksHTML(body []byte) bool {
	head := bytes.ToLower(bytes.TrimSpace(body))
	if len(head) > 512 {
		head = head[:512]
	}
	return bytes.HasPrefix(head, []byte("<!doctype html")) || bytes.HasPrefix(head, []byte("<html")) ||
		bytes.Contains(head, []byte("<head>")) && !bytes.HasPrefix(head, []byte("<?xml"))
}

// decodeXML unmarshals body into v. An HTML page is ErrUnexpectedContent and
// XML that stops early is ErrTruncated, so callers can tell them from
// well-formed answers they do not understand.
func decodeXML(op string, body []byte, v any) error {
	if looksHTML(body) {
		return fmt.Errorf("%s: got an HTML page: %w", op, ErrUnexpectedContent)
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return fmt.Errorf("%s: empty body: %w", op, ErrTruncated)
	}
	d := xml.NewDecoder(bytes.NewReader(body))
	if err := d.Decode(v); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || strings.Contains(err.Error(), "unexpected EOF") {
			return fmt.Errorf("%s: %w: %v", op, ErrTruncated, err)
		}
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// decodeJSON unmarshals body into v, with the same error classes as
// decodeXML.
func decodeJSON(op string, body []byte, v any) error {
	trim := bytes.TrimSpace(body)
	if looksHTML(trim) || len(trim) > 0 && trim[0] != '{' && trim[0] != '[' {
		return fmt.Errorf("%s: not JSON: %w", op, ErrUnexpectedContent)
	}
	if err := json.Unmarshal(trim, v); err != nil {
		var se *json.SyntaxError
		if len(trim) == 0 || errors.Is(err, io.ErrUnexpectedEOF) || errors.As(err, &se) && se.Offset >= int64(len(trim)) {
			return fmt.Errorf("%s: %w: %v", op, ErrTruncated, err)
		}
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// parseTime tries layouts in order and returns the zero time when none fits;
// a bad date should not cost a paper.
func parseTime(s string, layouts ...string) time.Time {
	s = strings.TrimSpace(s)
	for _, l := range layouts {
		if t, err := time.Parse(l, s); err == nil {
			return t
		}
	}
	return time.Time{}
}
