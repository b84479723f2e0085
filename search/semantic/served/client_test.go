package served

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"
)

func texts(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("paper abstract number %d", i)
	}
	return out
}

func assertFakeVectors(t *testing.T, dims int, in []string, got [][]float32) {
	t.Helper()
	if len(got) != len(in) {
		t.Fatalf("%d vectors for %d texts", len(got), len(in))
	}
	for i, text := range in {
		want := fakeVector(text, dims)
		var n, dot float64
		for j := range want {
			n += float64(want[j]) * float64(want[j])
		}
		for j := range want {
			dot += float64(got[i][j]) * float64(want[j]) / math.Sqrt(n)
		}
		if len(got[i]) != dims || math.Abs(dot-1) > 1e-5 {
			t.Fatalf("vector %d (%q) is not the normalised vector of its text (cosine %v)", i, text, dot)
		}
	}
}

func TestEmbedBatchesInOrder(t *testing.T) {
	f := newFake(t, 24)
	c, _ := newClient(t, f, Config{BatchSize: 32, APIKey: "sk-secret"})
	in := texts(70)
	got, err := c.Embed(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	assertFakeVectors(t, 24, in, got)
	var sizes []int
	for _, b := range f.batches {
		sizes = append(sizes, len(b))
	}
	if fmt.Sprint(sizes) != "[32 32 6]" {
		t.Errorf("batches %v, want [32 32 6]", sizes)
	}
	if f.auth[0] != "Bearer sk-secret" || f.models[0] != "test-model" {
		t.Errorf("sent auth %q model %q", f.auth[0], f.models[0])
	}
	if c.Dims() != 24 || c.ModelID() != "served/test-model/24" {
		t.Errorf("Dims %d ModelID %q", c.Dims(), c.ModelID())
	}
}

func TestURLForms(t *testing.T) {
	f := newFake(t, 8)
	for _, u := range []string{f.URL, f.URL + "/", f.URL + "/v1", f.URL + "/v1/", f.URL + "/v1/embeddings"} {
		c, _ := newClient(t, f, Config{URL: u})
		if _, err := c.Probe(context.Background()); err != nil {
			t.Errorf("URL %q: %v", u, err)
		}
	}
	for _, u := range []string{"", "localhost:11434", "ftp://x/v1", "http://user:pw@/v1"} {
		_, err := New(Config{URL: u, Model: "m"})
		if err == nil || strings.Contains(err.Error(), "pw") {
			t.Errorf("New(URL %q) = %v, want an error without the password", u, err)
		}
	}
	if _, err := New(Config{URL: f.URL}); err == nil {
		t.Error("New without a model: no error")
	}
}

func TestModelIDIgnoresHost(t *testing.T) {
	a, _ := New(Config{URL: "http://gpu-1:8080", Model: "bge", Dims: 768})
	b, _ := New(Config{URL: "https://embed.example.org/v1", Model: "bge", Dims: 768})
	if a.ModelID() != b.ModelID() {
		t.Errorf("ModelIDs %q and %q differ", a.ModelID(), b.ModelID())
	}
}

func TestEmptyTextsNeedNoRequest(t *testing.T) {
	f := newFake(t, 8)
	c, _ := newClient(t, f, Config{})
	got, err := c.Embed(context.Background(), []string{"", "real text", "  \n"})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.batches) != 1 || len(f.batches[0]) != 1 {
		t.Errorf("sent %q, want only the real text", f.batches)
	}
	for _, i := range []int{0, 2} {
		if len(got[i]) != 8 || got[i][0] != 0 {
			t.Errorf("vector %d = %v, want 8 zeros", i, got[i])
		}
	}
}

func TestRetriesServerErrors(t *testing.T) {
	f := newFake(t, 8)
	f.answer = func(n int, w http.ResponseWriter, _ []string) bool {
		if n <= 2 {
			http.Error(w, "overloaded", http.StatusServiceUnavailable)
			return true
		}
		return false
	}
	c, waits := newClient(t, f, Config{Backoff: 100 * time.Millisecond})
	if _, err := c.Embed(context.Background(), texts(3)); err != nil {
		t.Fatal(err)
	}
	if f.count() != 3 || len(*waits) != 2 {
		t.Fatalf("%d requests, %d waits; want 3 and 2", f.count(), len(*waits))
	}
	for i, d := range *waits {
		if ceil := 100 * time.Millisecond << i; d <= 0 || d > ceil {
			t.Errorf("wait %d = %v, want in (0, %v]", i, d, ceil)
		}
	}
}

func TestRetryAfter(t *testing.T) {
	for name, header := range map[string]string{
		"seconds": "7",
		"date":    time.Now().Add(7 * time.Second).UTC().Format(http.TimeFormat),
	} {
		t.Run(name, func(t *testing.T) {
			f := newFake(t, 8)
			f.answer = func(n int, w http.ResponseWriter, _ []string) bool {
				if n == 1 {
					w.Header().Set("Retry-After", header)
					http.Error(w, `{"error":"rate limited"}`, http.StatusTooManyRequests)
					return true
				}
				return false
			}
			c, waits := newClient(t, f, Config{})
			if _, err := c.Embed(context.Background(), texts(1)); err != nil {
				t.Fatal(err)
			}
			if len(*waits) != 1 || (*waits)[0] < 5*time.Second || (*waits)[0] > 7*time.Second {
				t.Errorf("waits %v, want one of about 7s", *waits)
			}
		})
	}
}

func TestGivesUpAfterRetries(t *testing.T) {
	f := newFake(t, 8)
	f.answer = func(_ int, w http.ResponseWriter, _ []string) bool {
		http.Error(w, `{"error":{"message":"internal failure"}}`, http.StatusInternalServerError)
		return true
	}
	c, _ := newClient(t, f, Config{Retries: 3})
	_, err := c.Embed(context.Background(), texts(1))
	if !errors.Is(err, ErrBusy) || !strings.Contains(err.Error(), "internal failure") {
		t.Errorf("Embed = %v, want ErrBusy with the server's message", err)
	}
	if f.count() != 4 {
		t.Errorf("%d requests, want 4", f.count())
	}
}

func TestTimeout(t *testing.T) {
	f := newFake(t, 8)
	f.answer = func(_ int, w http.ResponseWriter, _ []string) bool {
		time.Sleep(300 * time.Millisecond)
		return false
	}
	c, waits := newClient(t, f, Config{Timeout: 30 * time.Millisecond, Retries: 1})
	_, err := c.Embed(context.Background(), texts(1))
	if !errors.Is(err, ErrUnreachable) || !strings.Contains(err.Error(), "no answer within 30ms") {
		t.Errorf("Embed = %v, want ErrUnreachable after the timeout", err)
	}
	if len(*waits) != 1 {
		t.Errorf("%d retries, want 1", len(*waits))
	}
}

func TestUnreachable(t *testing.T) {
	f := newFake(t, 8)
	f.Close()
	c, waits := newClient(t, f, Config{APIKey: "sk-secret"})
	_, err := c.Embed(context.Background(), texts(1))
	if !errors.Is(err, ErrUnreachable) || strings.Contains(err.Error(), "sk-secret") {
		t.Errorf("Embed = %v, want ErrUnreachable without the key", err)
	}
	if len(*waits) != defaultRetries {
		t.Errorf("%d retries, want %d", len(*waits), defaultRetries)
	}
}

func TestCancelledWhileWaiting(t *testing.T) {
	f := newFake(t, 8)
	f.answer = func(_ int, w http.ResponseWriter, _ []string) bool {
		w.WriteHeader(http.StatusBadGateway)
		return true
	}
	c, err := New(Config{URL: f.URL, Model: "m", Backoff: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	// Both: the caller sees its deadline, the user why it was reached.
	if _, err := c.Embed(ctx, texts(1)); !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, ErrBusy) {
		t.Errorf("Embed = %v, want the context's error and the server's failure", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Embed took %v after the context ended", d)
	}
}

func TestErrorAnswers(t *testing.T) {
	cases := []struct {
		name   string
		status int
		ctype  string
		body   string
		want   error
		says   string
	}{
		{"404 page", 404, "text/plain", "404 page not found", ErrNotEmbeddings, "404"},
		{"404 HTML page", 404, "text/html", "<html><title>Not Found</title></html>", ErrNotEmbeddings, "the server's API base"},
		{"HTML 200", 200, "text/html", "<!DOCTYPE html><html>login</html>", ErrNotEmbeddings, "HTML"},
		{"HTML without type", 200, "", "<html><body>hi</body></html>", ErrNotEmbeddings, "HTML"},
		{"405", 405, "", "", ErrNotEmbeddings, "405"},
		{"ollama model", 404, "application/json", `{"error":"model \"nomic\" not found, try pulling it first"}`, ErrModel, "try pulling"},
		{"openai model", 404, "application/json", `{"error":{"message":"The model 'x' does not exist","code":"model_not_found"}}`, ErrModel, "does not exist"},
		{"model by code", 404, "application/json", `{"error":{"message":"model 'x' is not served here","type":"invalid_request_error","code":"model_not_found"}}`, ErrModel, "not served here"},
		{"HTML error page", 400, "text/html", "<html><head><title>400 Bad Request</title></head></html>", ErrRejected, `"400 Bad Request"`},
		{"vllm model", 404, "application/json", `{"object":"error","message":"The model x does not exist.","type":"NotFoundError"}`, ErrModel, "does not exist"},
		{"401", 401, "application/json", `{"error":{"message":"Incorrect API key provided"}}`, ErrAuth, "Incorrect API key"},
		{"too long", 413, "application/json", `{"error":"input must have less than 512 tokens"}`, ErrRejected, "512 tokens"},
		{"garbage JSON", 200, "application/json", `{"data": [`, ErrNotEmbeddings, "not the JSON"},
		{"other JSON", 200, "application/json", `{"status":"ok"}`, ErrNotEmbeddings, `no "data"`},
		{"empty data", 200, "application/json", `{"data":[]}`, ErrBadAnswer, "no vectors for 2 texts"},
		{"too few", 200, "application/json", `{"data":[{"index":0,"embedding":[1,2]}]}`, ErrBadAnswer, "1 vectors for 2 texts"},
		{"repeated index", 200, "application/json", `{"data":[{"index":0,"embedding":[1,2]},{"index":0,"embedding":[1,2]}]}`, ErrBadAnswer, "index 0"},
		{"index out of range", 200, "application/json", `{"data":[{"index":0,"embedding":[1,2]},{"index":5,"embedding":[1,2]}]}`, ErrBadAnswer, "index 5"},
		{"mixed sizes", 200, "application/json", `{"data":[{"index":0,"embedding":[1,2]},{"index":1,"embedding":[1,2,3]}]}`, ErrDims, "mixed sizes"},
		{"empty vector", 200, "application/json", `{"data":[{"index":0,"embedding":[]},{"index":1,"embedding":[]}]}`, ErrBadAnswer, "empty"},
		{"strings in vector", 200, "application/json", `{"data":[{"index":0,"embedding":["a"]},{"index":1,"embedding":[1]}]}`, ErrBadAnswer, "vector 0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t, 8)
			f.answer = func(_ int, w http.ResponseWriter, _ []string) bool {
				if c.ctype != "" {
					w.Header().Set("Content-Type", c.ctype)
				}
				w.WriteHeader(c.status)
				fmt.Fprint(w, c.body)
				return true
			}
			cl, waits := newClient(t, f, Config{APIKey: "sk-secret"})
			_, err := cl.Embed(context.Background(), []string{"a", "b"})
			if !errors.Is(err, c.want) {
				t.Fatalf("Embed = %v, want %v", err, c.want)
			}
			if msg := err.Error(); !strings.Contains(msg, c.says) || strings.Contains(msg, "sk-secret") {
				t.Errorf("error %q should say %q and not the key", msg, c.says)
			}
			if len(*waits) != 0 {
				t.Errorf("retried %d times an answer retrying cannot fix", len(*waits))
			}
		})
	}
}

func TestDimsChecked(t *testing.T) {
	f := newFake(t, 8)
	c, _ := newClient(t, f, Config{Dims: 16})
	if _, err := c.Embed(context.Background(), texts(1)); !errors.Is(err, ErrDims) || !strings.Contains(err.Error(), "8-dimension vectors, 16 expected") {
		t.Errorf("Embed with Dims 16 from an 8-dim model = %v", err)
	}
	// A model that changes size between answers (swapped on the server).
	c, _ = newClient(t, f, Config{})
	if _, err := c.Embed(context.Background(), texts(1)); err != nil {
		t.Fatal(err)
	}
	f.dims = 12
	if _, err := c.Embed(context.Background(), texts(1)); !errors.Is(err, ErrDims) {
		t.Errorf("Embed after the model changed size = %v, want ErrDims", err)
	}
}

func TestBase64Vectors(t *testing.T) {
	f := newFake(t, 8)
	f.answer = func(_ int, w http.ResponseWriter, _ []string) bool {
		// [1, 0] as little-endian float32s.
		fmt.Fprint(w, `{"data":[{"index":0,"embedding":"AACAPwAAAAA="}]}`)
		return true
	}
	c, _ := newClient(t, f, Config{})
	got, err := c.Embed(context.Background(), []string{"x"})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got[0]) != "[1 0]" {
		t.Errorf("base64 vector = %v, want [1 0]", got[0])
	}
}
