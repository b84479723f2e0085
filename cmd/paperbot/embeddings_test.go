package main

import (
	"context"
	"encoding/json"
	"hash/fnv"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/slacktest"
)

func TestCheckReportsTheSentenceModel(t *testing.T) {
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model string `json:"model"`
			Input any    `json:"input"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		if req.Model != "mini" {
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"error":{"message":"model not found","code":"model_not_found"}}`))
			return
		}
		_, _ = w.Write([]byte(`{"object":"list","data":[{"object":"embedding","index":0,"embedding":[0.6,0.8,0]}]}`))
	}))
	defer fake.Close()
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close() // a port nothing answers on
	tests := []struct {
		name string
		cfg  Config
		ok   bool
		want string
	}{
		{"built in", Config{Meaning: true}, true, "static/all-MiniLM-L6-v2/256/"},
		{"off", Config{Meaning: false}, true, "words alone"},
		{"served", Config{Meaning: true, EmbeddingsURL: fake.URL, EmbeddingsModel: "mini"}, true, "3-dimension vectors"},
		{"served with prefixes", Config{Meaning: true, EmbeddingsURL: fake.URL, EmbeddingsModel: "mini",
			EmbeddingsQueryPrefix: "query: ", EmbeddingsDocumentPrefix: "passage: "}, true, `model mini (query prefix "query: ", document prefix "passage: ") answers`},
		{"served with a query prefix", Config{Meaning: true, EmbeddingsURL: fake.URL, EmbeddingsModel: "mini",
			EmbeddingsQueryPrefix: "Represent this sentence for searching relevant passages: "}, true, `model mini (query prefix "Represent this sentence for searching relevant passages: ") answers`},
		{"wrong model", Config{Meaning: true, EmbeddingsURL: fake.URL, EmbeddingsModel: "other"}, false, "model"},
		{"unreachable", Config{Meaning: true, EmbeddingsURL: down.URL, EmbeddingsModel: "mini"}, false, "unreachable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.cfg.EmbeddingsBatch, tt.cfg.EmbeddingsTimeout = 8, 5*time.Second
			r := &checkReport{}
			checkMeaning(context.Background(), tt.cfg, r)
			if len(r.Checks) != 1 {
				t.Fatalf("%d checks, want 1", len(r.Checks))
			}
			c := r.Checks[0]
			if c.OK != tt.ok || !strings.Contains(c.Detail, tt.want) {
				t.Errorf("check %s: ok %v %q, want ok %v and %q", c.Name, c.OK, c.Detail, tt.ok, tt.want)
			}
		})
	}
}

// fakeEmbeddings is an OpenAI-compatible embeddings server for tests: a
// text's vector is its words hashed into 16 dimensions. down makes it
// answer 503, as a server restarting does.
func fakeEmbeddings(t *testing.T, down *atomic.Bool, calls *atomic.Int64) *httptest.Server {
	t.Helper()
	return recordingEmbeddings(t, down, calls, nil)
}

// sentTexts is every text an embeddings server was sent, in order.
type sentTexts struct {
	mu    sync.Mutex
	texts []string
}

func (s *sentTexts) all() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.texts)
}

// recordingEmbeddings is fakeEmbeddings keeping the texts it is sent in
// sent (if not nil).
func recordingEmbeddings(t *testing.T, down *atomic.Bool, calls *atomic.Int64, sent *sentTexts) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if down.Load() {
			http.Error(w, "restarting", http.StatusServiceUnavailable)
			return
		}
		var req struct {
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if sent != nil {
			sent.mu.Lock()
			sent.texts = append(sent.texts, req.Input...)
			sent.mu.Unlock()
		}
		type item struct {
			Index     int       `json:"index"`
			Embedding []float64 `json:"embedding"`
		}
		out := struct {
			Data []item `json:"data"`
		}{}
		for i, text := range req.Input {
			v := make([]float64, 16)
			for _, w := range strings.Fields(strings.ToLower(text)) {
				h := fnv.New32a()
				_, _ = h.Write([]byte(w))
				v[h.Sum32()%16]++
			}
			v[0] += 0.5 // no text is the zero vector
			out.Data = append(out.Data, item{Index: i, Embedding: v})
		}
		_ = json.NewEncoder(w).Encode(out)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestServeWithEmbeddingsServerDown: serve builds its index with a served
// model's vectors (cached in the data directory); when the server goes
// down, a question is still answered from the words, the log says so and
// the metric counts it.
func TestServeWithEmbeddingsServerDown(t *testing.T) {
	var down atomic.Bool
	var calls atomic.Int64
	emb := fakeEmbeddings(t, &down, &calls)
	srv, ln := emulatedSlack(t)
	addr := ln.Addr().String()
	data := t.TempDir()
	t.Setenv("PAPERBOT_DATA_DIR", data)
	t.Setenv("PAPERBOT_EMBEDDINGS_URL", emb.URL)
	t.Setenv("PAPERBOT_EMBEDDINGS_MODEL", "fake-16")
	t.Setenv("PAPERBOT_EMBEDDINGS_TIMEOUT", "1s")
	sv := startServe(t, ln)
	if err := srv.WaitConnected(1, 20*time.Second); err != nil {
		t.Fatalf("never connected: %v\n%s", err, sv.errOut.String())
	}
	if _, err := os.Stat(filepath.Join(data, "embeddings.db")); err != nil {
		t.Fatalf("no vector cache in the data directory: %v", err)
	}
	if calls.Load() < 2 {
		t.Fatalf("the embeddings server was asked %d times; the papers were not embedded", calls.Load())
	}

	down.Store(true)
	env := srv.SlashCommand(slacktest.CommandOpts{UserID: "U1", ChannelID: "C1", Text: "kv cache compression"})
	if _, err := srv.WaitAck(env, 3*time.Second); err != nil {
		t.Fatalf("slash command not acked: %v", err)
	}
	err := srv.WaitFor(10*time.Second, func() bool {
		for _, p := range srv.ResponseURLPosts() {
			if p.Error == "" && strings.Contains(string(p.Blocks), "LaCache") {
				return true
			}
		}
		return false
	})
	if err != nil {
		t.Fatalf("with the embeddings server down, no answer from the words: %+v\n%s", srv.ResponseURLPosts(), sv.errOut.String())
	}
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), "paperbot_query_embedding_failures_total 1") {
		t.Errorf("metrics do not count the failed query:\n%s", grepLines(string(body), "embedding"))
	}
	if !strings.Contains(sv.errOut.String(), "query not embedded, answered on words alone") {
		t.Errorf("no warning in the log:\n%s", sv.errOut.String())
	}
	if code := sv.stop(); code != exitOK {
		t.Fatalf("serve exited %d: %s", code, sv.errOut.String())
	}
}

func grepLines(s, word string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, word) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
