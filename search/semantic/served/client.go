// Package served embeds texts with any OpenAI-compatible POST /v1/embeddings
// endpoint (Ollama, Text Embeddings Inference, vLLM, llama.cpp's server,
// LM Studio, OpenAI), and caches vectors by text in the data directory.
package served

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/paperbot/paperbot/search/httpwait"
	"github.com/paperbot/paperbot/search/semantic"
)

// Config says where and how to embed. Only URL and Model are required.
type Config struct {
	// URL is the server's base URL ("http://localhost:11434"), its /v1 URL
	// or the full /v1/embeddings URL.
	URL   string
	Model string
	// APIKey, if set, is sent as a bearer token. It is never logged and
	// never part of an error.
	APIKey string
	// BatchSize is the most texts a request carries (default 32).
	BatchSize int
	// Dims is the vector size expected (0: whatever the first answer has).
	// Answers of another size fail with ErrDims.
	Dims int
	// RequestDims, if set, is sent as "dimensions", for models that can
	// shorten their vectors (OpenAI's text-embedding-3, Matryoshka models).
	RequestDims int
	// Timeout bounds each request (default 60s).
	Timeout time.Duration
	// Retries is how many times a request is tried again after network
	// errors, 429 and 5xx answers (default 4; negative: none).
	Retries int
	// Backoff is the wait before the first retry (default 500ms); it
	// doubles with each retry up to 30s, with full jitter. A Retry-After
	// header, if present, is followed instead (up to 2 minutes).
	Backoff time.Duration
	// HTTPClient sends the requests (default: a client without a timeout,
	// as Timeout bounds each request).
	HTTPClient *http.Client
	// QueryPrefix and DocumentPrefix are put before each query (EmbedQuery)
	// and each document (Embed), for models trained to tell them apart:
	// e5's "query: " and "passage: ", nomic-embed-text's "search_query: "
	// and "search_document: ". Empty: texts are sent as they are.
	QueryPrefix    string
	DocumentPrefix string
}

const (
	defaultBatch   = 32
	defaultTimeout = 60 * time.Second
	defaultRetries = 4
	defaultBackoff = 500 * time.Millisecond
	maxBackoff     = 30 * time.Second
	maxRetryAfter  = 2 * time.Minute
	probeText      = "paperbot embeddings probe"
)

// Client embeds through an embeddings endpoint. It is safe for concurrent
// use. Its vectors are L2-normalised; an empty text gets the zero vector
// without a request.
type Client struct {
	cfg      Config
	endpoint string // the full URL requests go to
	shown    string // endpoint without credentials or query, for errors
	dims     atomic.Int64
	// wait sleeps between retries; tests replace it to record the waits.
	wait func(ctx context.Context, d time.Duration) error
}

var _ semantic.QueryEmbedder = (*Client)(nil)

// New checks cfg and returns a client. It does not contact the server;
// Probe does.
func New(cfg Config) (*Client, error) {
	if strings.TrimSpace(cfg.Model) == "" {
		return nil, errors.New("served: no embeddings model named")
	}
	endpoint, shown, err := endpointURL(cfg.URL)
	if err != nil {
		return nil, err
	}
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = defaultBatch
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = defaultTimeout
	}
	if cfg.Retries == 0 {
		cfg.Retries = defaultRetries
	}
	cfg.Retries = max(cfg.Retries, 0)
	if cfg.Backoff <= 0 {
		cfg.Backoff = defaultBackoff
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{}
	}
	if cfg.Dims < 0 || cfg.RequestDims < 0 || cfg.Dims > 0 && cfg.RequestDims > 0 && cfg.Dims != cfg.RequestDims {
		return nil, fmt.Errorf("served: dims %d and requested dims %d disagree", cfg.Dims, cfg.RequestDims)
	}
	c := &Client{cfg: cfg, endpoint: endpoint, shown: shown, wait: httpwait.Sleep}
	c.dims.Store(int64(max(cfg.Dims, cfg.RequestDims)))
	return c, nil
}

// endpointURL completes a base URL to its /v1/embeddings endpoint.
func endpointURL(raw string) (endpoint, shown string, err error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", "", fmt.Errorf("served: embeddings URL %q is not an http(s) URL like http://localhost:11434/v1", redact(raw))
	}
	p := strings.TrimRight(u.Path, "/")
	switch {
	case strings.HasSuffix(p, "/embeddings"):
	case strings.HasSuffix(p, "/v1"):
		p += "/embeddings"
	default:
		p += "/v1/embeddings"
	}
	u.Path = p
	s := *u
	s.User, s.RawQuery, s.Fragment = nil, "", ""
	return u.String(), s.String(), nil
}

// redact drops what may hold a secret (user info, query) from a URL
// that is unusable, for the error that says so.
func redact(raw string) string {
	if i := strings.IndexByte(raw, '?'); i >= 0 {
		raw = raw[:i]
	}
	if at := strings.LastIndexByte(raw, '@'); at >= 0 {
		start := strings.Index(raw, "//") + 2 // 1 if there is none
		if start > at {
			start = 0
		}
		raw = raw[:start] + "…" + raw[at:]
	}
	return raw
}

// Dims is the vector size: Config.Dims, or what the first answer had (0
// before any).
func (c *Client) Dims() int { return int(c.dims.Load()) }

// ModelID is "served/<model>/<dims>": the same for the same model served
// anywhere, so moving the server does not invalidate an index. With a
// prefix set, "/prefixes-" and a hash of both prefixes follow, so vectors
// made with other prefixes are never compared with these.
func (c *Client) ModelID() string {
	id := "served/" + c.cfg.Model + "/" + strconv.Itoa(c.Dims())
	if c.cfg.QueryPrefix == "" && c.cfg.DocumentPrefix == "" {
		return id // as before prefixes existed: indexes and caches stay valid
	}
	h := sha256.Sum256([]byte(strconv.Quote(c.cfg.QueryPrefix) + strconv.Quote(c.cfg.DocumentPrefix)))
	return id + "/prefixes-" + hex.EncodeToString(h[:6])
}

// Prefixes returns Config.QueryPrefix and Config.DocumentPrefix: what the
// server is sent before a query and before a document.
func (c *Client) Prefixes() (query, document string) {
	return c.cfg.QueryPrefix, c.cfg.DocumentPrefix
}

// Probe embeds one short text and returns the vector size: it tells
// whether the URL, the model and the key work.
func (c *Client) Probe(ctx context.Context) (int, error) {
	if _, err := c.Embed(ctx, []string{probeText}); err != nil {
		return 0, err
	}
	return c.Dims(), nil
}

// Embed returns a vector per document text, each sent after
// DocumentPrefix, BatchSize texts a request. Errors are *Error values of
// the kinds above, or ctx's error; when ctx ends while retrying, both
// (errors.Is matches either).
func (c *Client) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return c.embed(ctx, texts, c.cfg.DocumentPrefix)
}

// EmbedQuery returns the vector of a search query, sent after
// QueryPrefix. Its errors are Embed's.
func (c *Client) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	vs, err := c.embed(ctx, []string{text}, c.cfg.QueryPrefix)
	if err != nil {
		return nil, err
	}
	return vs[0], nil
}

// embed returns a vector per text, each sent after prefix; an empty text
// gets the zero vector.
func (c *Client) embed(ctx context.Context, texts []string, prefix string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	var batch []string
	var at []int
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		vecs, err := c.request(ctx, batch)
		if err != nil {
			return err
		}
		for i, v := range vecs {
			out[at[i]] = v
		}
		batch, at = batch[:0], at[:0]
		return nil
	}
	for i, t := range texts {
		if strings.TrimSpace(t) == "" {
			continue
		}
		batch = append(batch, prefix+t)
		at = append(at, i)
		if len(batch) == c.cfg.BatchSize {
			if err := flush(); err != nil {
				return nil, err
			}
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	// Empty texts: zero vectors of the size the others have.
	for i := range out {
		if out[i] == nil {
			if c.Dims() == 0 {
				if _, err := c.Probe(ctx); err != nil {
					return nil, err
				}
			}
			out[i] = make([]float32, c.Dims())
		}
	}
	return out, nil
}

// request embeds one batch, trying again on network errors, 429 and 5xx.
func (c *Client) request(ctx context.Context, batch []string) ([][]float32, error) {
	// last is the previous attempt's error: when the caller's deadline ends
	// while retrying, it says why (unreachable, busy), not just "deadline".
	var last error
	for attempt := 0; ; attempt++ {
		vecs, retryAfter, err := c.try(ctx, batch)
		if err == nil {
			return vecs, nil
		}
		if ctx.Err() != nil {
			if last != nil {
				return nil, fmt.Errorf("%w (gave up: %w)", last, ctx.Err())
			}
			return nil, ctx.Err()
		}
		last = err
		if !retryable(err) || attempt >= c.cfg.Retries {
			return nil, err
		}
		d := retryAfter
		if d <= 0 {
			d = backoff(c.cfg.Backoff, attempt)
		}
		if werr := c.wait(ctx, min(d, maxRetryAfter)); werr != nil {
			return nil, fmt.Errorf("%w (gave up: %w)", err, werr)
		}
	}
}

// backoff is the wait before retry attempt+1: full jitter over an
// exponentially growing ceiling.
func backoff(base time.Duration, attempt int) time.Duration {
	ceil := min(maxBackoff, base<<min(attempt, 16))
	return time.Duration(rand.Int64N(int64(ceil))) + 1
}
