package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
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
