package sources

import (
	"errors"
	"fmt"
	"time"
)

var (
	// ErrTruncated is returned when a response body ends before its declared
	// length or the XML/JSON in it ends early.
	ErrTruncated = errors.New("truncated response body")
	// ErrUnexpectedContent is returned when a service answers with something
	// other than the format asked for, such as an HTML browser-check page
	// with status 200 where JSON was expected.
	ErrUnexpectedContent = errors.New("unexpected content")
)

// HTTPError is a response whose status is not 2xx (after retries of 503 and
// 429 ran out). Body holds the start of the response, for parsers of
// services that describe errors in it.
type HTTPError struct {
	URL        string
	Status     int
	RetryAfter time.Duration // as sent, 0 if none
	Body       []byte
}

func (e *HTTPError) Error() string {
	return fmt.Sprintf("GET %s: HTTP %d", e.URL, e.Status)
}

// OAIError is an OAI-PMH protocol error (<error code="...">). Match it with
// errors.Is against ErrNoRecordsMatch and friends, which compare Code only.
type OAIError struct {
	Code    string
	Message string
}

func (e *OAIError) Error() string {
	if e.Message == "" {
		return "oai-pmh: " + e.Code
	}
	return "oai-pmh: " + e.Code + ": " + e.Message
}

// Is reports whether target is an *OAIError with the same Code.
func (e *OAIError) Is(target error) bool {
	t, ok := target.(*OAIError)
	return ok && t.Code == e.Code
}

// OAI-PMH error codes (OAI-PMH 2.0 section 3.6) as targets for errors.Is.
var (
	ErrNoRecordsMatch     = &OAIError{Code: "noRecordsMatch"}
	ErrBadResumptionToken = &OAIError{Code: "badResumptionToken"}
	ErrIDDoesNotExist     = &OAIError{Code: "idDoesNotExist"}
	ErrBadArgument        = &OAIError{Code: "badArgument"}
	ErrCannotDisseminate  = &OAIError{Code: "cannotDisseminateFormat"}
	ErrNoSetHierarchy     = &OAIError{Code: "noSetHierarchy"}
	ErrBadVerb            = &OAIError{Code: "badVerb"}
	ErrNoMetadataFormats  = &OAIError{Code: "noMetadataFormats"}
)

// APIError is an error a service described in its own format: an arXiv API
// error feed or an OpenReview error object.
type APIError struct {
	Service string // "arxiv-api", "openreview"
	Name    string // OpenReview's error name ("ValidationError"), or ""
	Message string
}

func (e *APIError) Error() string {
	if e.Name != "" {
		return e.Service + ": " + e.Name + ": " + e.Message
	}
	return e.Service + ": " + e.Message
}
