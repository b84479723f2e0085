package served

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// fakeServer is an OpenAI-compatible embeddings endpoint. Its vector for a
// text is a function of the text (not normalised, so tests see the client
// normalise). answer, if set, may replace an answer: it gets the request
// number (from 1) and returns false to answer normally.
type fakeServer struct {
	*httptest.Server
	dims int

	mu       sync.Mutex
	requests int
	batches  [][]string
	auth     []string
	models   []string
	answer   func(n int, w http.ResponseWriter, texts []string) bool
}

func newFake(t *testing.T, dims int) *fakeServer {
	t.Helper()
	f := &fakeServer{dims: dims}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeServer) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/embeddings" || r.Method != http.MethodPost {
		http.NotFound(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var req embedRequest
	_ = json.Unmarshal(body, &req)
	f.mu.Lock()
	f.requests++
	n := f.requests
	f.batches = append(f.batches, req.Input)
	f.auth = append(f.auth, r.Header.Get("Authorization"))
	f.models = append(f.models, req.Model)
	answer := f.answer
	f.mu.Unlock()
	if answer != nil && answer(n, w, req.Input) {
		return
	}
	writeVectors(w, f.dims, req.Input)
}

// writeVectors answers texts with their fake vectors, last first (servers
// may answer out of order; index says which is which).
func writeVectors(w http.ResponseWriter, dims int, texts []string) {
	type item struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	var data []item
	for i := len(texts) - 1; i >= 0; i-- {
		data = append(data, item{"embedding", i, fakeVector(texts[i], dims)})
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": "m"})
}

// fakeVector is the fake model's unnormalised vector for text.
func fakeVector(text string, dims int) []float32 {
	v := make([]float32, dims)
	h := sha256.Sum256([]byte(text))
	for j := range v {
		v[j] = float32(int(h[j%32])-128) * float32(1+j/32)
	}
	return v
}

func (f *fakeServer) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.requests
}

func (f *fakeServer) texts() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, b := range f.batches {
		n += len(b)
	}
	return n
}

// newClient returns a client of the fake whose retries do not sleep but
// record their waits.
func newClient(t *testing.T, f *fakeServer, cfg Config) (*Client, *[]time.Duration) {
	t.Helper()
	if cfg.URL == "" {
		cfg.URL = f.URL
	}
	if cfg.Model == "" {
		cfg.Model = "test-model"
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	waits := &[]time.Duration{}
	c.wait = func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		*waits = append(*waits, d)
		mu.Unlock()
		return ctx.Err()
	}
	return c, waits
}

// received is every text the server was sent, in order.
func (f *fakeServer) received() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, b := range f.batches {
		out = append(out, b...)
	}
	return out
}
