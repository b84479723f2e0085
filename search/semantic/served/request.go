package served

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/paperbot/paperbot/search/httpwait"
	"github.com/paperbot/paperbot/search/semantic"
)

// maxAnswer bounds an answer's size: 256 texts of 4096 dims as JSON text
// take about 20 MB.
const maxAnswer = 64 << 20

type embedRequest struct {
	Model      string   `json:"model"`
	Input      []string `json:"input"`
	Dimensions int      `json:"dimensions,omitempty"`
}

type embedAnswer struct {
	Data *[]struct {
		Index     *int            `json:"index"`
		Embedding json.RawMessage `json:"embedding"`
	} `json:"data"`
}

// try sends one request. It returns the vectors, or an *Error and the
// wait a Retry-After header asked for.
func (c *Client) try(ctx context.Context, batch []string) ([][]float32, time.Duration, error) {
	body, err := json.Marshal(embedRequest{Model: c.cfg.Model, Input: batch, Dimensions: c.cfg.RequestDims})
	if err != nil {
		return nil, 0, c.fail(ErrRejected, 0, "", err)
	}
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, 0, c.fail(ErrRejected, 0, "", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if c.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
	}
	resp, err := c.cfg.HTTPClient.Do(req)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, 0, c.fail(ErrUnreachable, 0, fmt.Sprintf("no answer within %v", c.cfg.Timeout), nil)
		}
		return nil, 0, c.fail(ErrUnreachable, 0, "", unwrapURLError(err))
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer+1))
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, 0, c.fail(ErrUnreachable, resp.StatusCode, fmt.Sprintf("answer not complete within %v", c.cfg.Timeout), nil)
		}
		return nil, 0, c.fail(ErrUnreachable, resp.StatusCode, "answer cut off", err)
	}
	if len(raw) > maxAnswer {
		return nil, 0, c.fail(ErrBadAnswer, resp.StatusCode, fmt.Sprintf("answer longer than %d MB", maxAnswer>>20), nil)
	}
	if resp.StatusCode != http.StatusOK {
		wait, _ := httpwait.RetryAfter(resp.Header.Get("Retry-After"), time.Now())
		return nil, wait, c.statusError(resp, raw)
	}
	if isHTML(resp.Header.Get("Content-Type"), raw) {
		return nil, 0, c.fail(ErrNotEmbeddings, resp.StatusCode, "the answer is an HTML page; the URL should be the server's API base, like http://localhost:11434/v1", nil)
	}
	vecs, err := c.decode(raw, len(batch))
	return vecs, 0, err
}

func (c *Client) fail(kind error, status int, msg string, err error) *Error {
	return &Error{Kind: kind, URL: c.shown, Status: status, Msg: msg, Err: err}
}

// unwrapURLError drops net/http's "Post <url>:" prefix, which would repeat
// the URL (and could carry a key in its query).
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// statusError turns a non-200 answer into an error of the right kind.
func (c *Client) statusError(resp *http.Response, raw []byte) error {
	msg, code := serverMessage(raw)
	st := resp.StatusCode
	html := isHTML(resp.Header.Get("Content-Type"), raw)
	if html {
		msg = "an HTML page"
		if t := htmlTitle(raw); t != "" {
			msg += " titled " + strconv.Quote(t)
		}
	}
	switch {
	case st == http.StatusTooManyRequests || st == http.StatusRequestTimeout || st >= 500:
		return c.fail(ErrBusy, st, msg, nil)
	case st == http.StatusUnauthorized || st == http.StatusForbidden:
		return c.fail(ErrAuth, st, msg, nil)
	case code == "model_not_found" || mentionsMissingModel(msg):
		return c.fail(ErrModel, st, fmt.Sprintf("model %q: %s", c.cfg.Model, msg), nil)
	case st == http.StatusNotFound || st == http.StatusMethodNotAllowed:
		if msg == "" || html {
			msg = "no embeddings endpoint there (" + msg + "); the URL should be the server's API base, like http://localhost:11434/v1"
		}
		return c.fail(ErrNotEmbeddings, st, msg, nil)
	}
	return c.fail(ErrRejected, st, msg, nil)
}

// serverMessage extracts the error message and code of the usual error
// shapes: {"error":"..."} (Ollama), {"error":{"message":"...","code":"..."}}
// (OpenAI), {"message":"..."} (vLLM), {"detail":"..."}; else the start of
// the body.
func serverMessage(raw []byte) (msg, code string) {
	var shape struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Code    json.RawMessage `json:"code"`
		Detail  json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(raw, &shape) == nil {
		var s string
		var obj struct {
			Message string          `json:"message"`
			Code    json.RawMessage `json:"code"`
		}
		switch {
		case json.Unmarshal(shape.Error, &s) == nil && s != "":
			msg = s
		case json.Unmarshal(shape.Error, &obj) == nil && obj.Message != "":
			msg = obj.Message
			_ = json.Unmarshal(obj.Code, &code)
		case shape.Message != "":
			msg = shape.Message
			_ = json.Unmarshal(shape.Code, &code)
		case json.Unmarshal(shape.Detail, &s) == nil && s != "":
			msg = s
		}
	}
	if msg == "" && !isHTML("", raw) {
		msg = string(raw)
	}
	return clip(msg, 200), code
}

// clip folds whitespace and cuts s to about n bytes.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = strings.ToValidUTF8(s[:n], "") + "…"
	}
	return s
}

// htmlTitle is an HTML page's <title>, if it has one.
func htmlTitle(raw []byte) string {
	lower := bytes.ToLower(raw)
	i := bytes.Index(lower, []byte("<title>"))
	if i < 0 {
		return ""
	}
	j := bytes.Index(lower[i:], []byte("</title>"))
	if j < 0 {
		return ""
	}
	return clip(string(raw[i+len("<title>"):i+j]), 80)
}

// mentionsMissingModel recognises the servers' "no such model" messages.
func mentionsMissingModel(msg string) bool {
	m := strings.ToLower(msg)
	if !strings.Contains(m, "model") {
		return false
	}
	for _, s := range []string{"not found", "does not exist", "not exist", "no such", "unknown model", "not available", "try pulling", "not served"} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

func isHTML(contentType string, raw []byte) bool {
	if mt, _, err := mime.ParseMediaType(contentType); err == nil && mt == "text/html" {
		return true
	}
	start := bytes.ToLower(bytes.TrimSpace(raw[:min(len(raw), 64)]))
	return bytes.HasPrefix(start, []byte("<!doctype html")) || bytes.HasPrefix(start, []byte("<html"))
}

// decode checks an answer and returns its vectors in the texts' order,
// L2-normalised.
func (c *Client) decode(raw []byte, n int) ([][]float32, error) {
	var ans embedAnswer
	if err := json.Unmarshal(raw, &ans); err != nil {
		msg, _ := serverMessage(raw)
		return nil, c.fail(ErrNotEmbeddings, http.StatusOK, "the answer is not the JSON of an embeddings endpoint: "+msg, err)
	}
	if ans.Data == nil {
		msg, _ := serverMessage(raw)
		return nil, c.fail(ErrNotEmbeddings, http.StatusOK, "the answer has no \"data\": "+msg, nil)
	}
	data := *ans.Data
	if len(data) == 0 {
		return nil, c.fail(ErrBadAnswer, http.StatusOK, fmt.Sprintf("no vectors for %d texts", n), nil)
	}
	if len(data) != n {
		return nil, c.fail(ErrBadAnswer, http.StatusOK, fmt.Sprintf("%d vectors for %d texts", len(data), n), nil)
	}
	out := make([][]float32, n)
	for pos, d := range data {
		i := pos
		if d.Index != nil {
			i = *d.Index
		}
		if i < 0 || i >= n || out[i] != nil {
			return nil, c.fail(ErrBadAnswer, http.StatusOK, fmt.Sprintf("vector %d has index %d: missing or repeated indexes for %d texts", pos, i, n), nil)
		}
		v, err := decodeVector(d.Embedding)
		if err != nil {
			return nil, c.fail(ErrBadAnswer, http.StatusOK, fmt.Sprintf("vector %d", i), err)
		}
		if len(v) == 0 {
			return nil, c.fail(ErrBadAnswer, http.StatusOK, fmt.Sprintf("vector %d is empty", i), nil)
		}
		out[i] = v
	}
	size := len(out[0])
	for i, v := range out {
		if len(v) != size {
			return nil, c.fail(ErrDims, http.StatusOK, fmt.Sprintf("vectors of mixed sizes in one answer: %d and %d (vector %d)", size, len(v), i), nil)
		}
	}
	// The first answer sets the model's size; later ones must keep it.
	if !c.dims.CompareAndSwap(0, int64(size)) && size != c.Dims() {
		return nil, c.fail(ErrDims, http.StatusOK, fmt.Sprintf("model %q answered %d-dimension vectors, %d expected (was the index built with another model?)", c.cfg.Model, size, c.Dims()), nil)
	}
	for _, v := range out {
		semantic.Normalize(v)
	}
	return out, nil
}

// decodeVector reads a JSON array of numbers or base64 of little-endian
// float32s (encoding_format "base64").
func decodeVector(raw json.RawMessage) ([]float32, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil || len(b)%4 != 0 {
			return nil, fmt.Errorf("base64 vector of %d bytes: %v", len(b), err)
		}
		v := make([]float32, len(b)/4)
		for i := range v {
			v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		}
		return v, checkFinite(v)
	}
	var v []float32
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	return v, checkFinite(v)
}

func checkFinite(v []float32) error {
	for j, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return fmt.Errorf("value %v at %d", x, j)
		}
	}
	return nil
}
