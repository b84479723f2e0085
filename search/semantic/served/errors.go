package served

import (
	"errors"
	"fmt"

	"github.com/paperbot/paperbot/search/semantic"
)

// The kinds of error Client returns; match them with errors.Is.
var (
	// ErrUnreachable: no answer (refused, unknown host, timed out).
	ErrUnreachable = errors.New("embeddings server unreachable")
	// ErrNotEmbeddings: something answered, but not an OpenAI-compatible
	// /v1/embeddings endpoint (404 or 405, an HTML page, JSON of another shape).
	ErrNotEmbeddings = errors.New("not an embeddings endpoint")
	// ErrModel: the server does not have the model asked for.
	ErrModel = errors.New("embeddings model not found")
	// ErrAuth: the server refused the API key (or wants one).
	ErrAuth = errors.New("embeddings server refused the API key")
	// ErrBusy: the server stayed overloaded or failing (429, 5xx) through
	// every retry.
	ErrBusy = errors.New("embeddings server busy or failing")
	// ErrRejected: the server refused the request itself (another 4xx),
	// for instance a text longer than the model takes.
	ErrRejected = errors.New("embeddings request rejected")
	// ErrBadAnswer: an answer that cannot be used: no vectors, too few or
	// too many, indexes that do not match the texts, broken encoding.
	ErrBadAnswer = errors.New("unusable embeddings answer")
	// ErrDims: vectors of another size than expected, or of mixed sizes.
	ErrDims = semantic.ErrDims
)

// Error is a failed embeddings request. The API key is never in it.
type Error struct {
	Kind   error  // one of the Err values above
	URL    string // the endpoint, without credentials or query
	Status int    // the HTTP status, 0 if none came
	Msg    string // what went wrong, the server's message included if any
	Err    error  // the underlying error, if any
}

func (e *Error) Error() string {
	s := fmt.Sprintf("%v: %s", e.Kind, e.URL)
	if e.Status != 0 && e.Status != 200 {
		s += fmt.Sprintf(" (HTTP %d)", e.Status)
	}
	if e.Msg != "" {
		s += ": " + e.Msg
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap gives errors.Is both the kind and the cause.
func (e *Error) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Err}
}

// retryable reports the errors worth another try.
func retryable(err error) bool {
	return errors.Is(err, ErrUnreachable) || errors.Is(err, ErrBusy)
}
