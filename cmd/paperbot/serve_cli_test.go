package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/boltstore"
	"github.com/paperbot/paperbot/bot/slacktest"
)

// TestCLIWhileServing: with `paperbot serve` holding the data directory,
// the query and digest commands are answered by the running bot, with the
// same output and exit codes, and no second index appears.
func TestCLIWhileServing(t *testing.T) {
	srv, ln := emulatedSlack(t)
	srv.SetChannel("C0PAPERS", slacktest.Channel{Name: "papers", Member: true})
	data := t.TempDir()
	t.Setenv("PAPERBOT_DATA_DIR", data)

	sv := startServe(t, ln)
	if err := srv.WaitConnected(1, 10*time.Second); err != nil {
		t.Fatalf("never connected: %v\n%s", err, sv.errOut.String())
	}

	_, out, _ := runCmd(t, t.Context(), "search", "--json", "-n", "1", "EQ-VAE")
	var res struct{ Results []struct{ ID string } }
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.Results) != 1 {
		t.Fatalf("search --json while serving: %v %q", err, out)
	}
	id := res.Results[0].ID
	tests := []struct {
		name     string
		args     []string
		stdin    string
		wantCode int
		want     string // in stdout+stderr
	}{
		{"search", []string{"search", "kv", "cache", "-n", "2"}, "", exitOK, "LaCache"},
		{"exclusion", []string{"search", "diffusion", "-image", "-n", "1"}, "", exitOK, "1. "},
		{"ask", []string{"ask", "which paper makes LLM prefill faster?"}, "", exitOK, "Speculative Prefill"},
		{"show", []string{"show", id}, "", exitOK, "EQ-VAE"},
		{"similar", []string{"similar", "-n", "2", id}, "", exitOK, "2. "},
		{"similar from stdin", []string{"similar", "--text", "-"}, "kv cache compression for long-context inference", exitOK, "1. "},
		{"no match", []string{"search", "zymurgy flibbertigibbet"}, "", exitNo, ""},
		{"unknown id", []string{"show", "zzzzzzzz"}, "", exitError, "zzzzzzzz"},
		{"usage stays local", []string{"search", "--jsn", "x"}, "", exitUsage, "did you mean --json?"},
		{"digest by ID", []string{"digest", "--dry-run", "--channel", "C0PAPERS"}, "", exitOK, "C0PAPERS has no active subscriptions"},
		{"digest by name", []string{"digest", "--dry-run", "--channel", "#papers"}, "", exitOK, "C0PAPERS has no active subscriptions"},
		{"digest JSON", []string{"digest", "--dry-run", "--json", "--channel", "C0PAPERS"}, "", exitOK, `"channel": "C0PAPERS"`},
		{"unknown channel name", []string{"digest", "--dry-run", "--channel", "#nope"}, "", exitError, "no channel #nope"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb strings.Builder
			code := run(t.Context(), tt.args, strings.NewReader(tt.stdin), &out, &errb)
			if code != tt.wantCode || !strings.Contains(out.String()+errb.String(), tt.want) {
				t.Fatalf("exit %d, want %d and %q in:\n%s%s", code, tt.wantCode, tt.want, out.String(), errb.String())
			}
			if strings.Contains(errb.String(), "in use by another process") {
				t.Fatalf("the CLI tried the locked index: %s", errb.String())
			}
		})
	}
	if dirs, _ := filepath.Glob(filepath.Join(data, "index", "idx-*")); len(dirs) != 1 {
		t.Errorf("index directories %v, want the bot's one only", dirs)
	}
	if code := sv.stop(); code != exitOK {
		t.Fatalf("serve exited %d: %s", code, sv.errOut.String())
	}
}

// TestDigestAsksTheBotBeforeTheLock: while something answers /debug/run for
// this data directory, digest --dry-run never touches the store (held here,
// as a running bot holds it).
func TestDigestAsksTheBotBeforeTheLock(t *testing.T) {
	clearEnv(t)
	data := t.TempDir()
	t.Setenv("PAPERBOT_DATA_DIR", data)
	store, err := boltstore.Open(filepath.Join(data, boltstore.FileName), boltstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	var got runRequest
	bot := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != runPath {
			http.NotFound(w, r)
			return
		}
		_ = json.NewDecoder(r.Body).Decode(&got)
		_ = json.NewEncoder(w).Encode(runResponse{Code: 0, Stdout: "answered by the bot\n"})
	}))
	defer bot.Close()
	t.Setenv("PAPERBOT_HTTP_ADDR", strings.TrimPrefix(bot.URL, "http://"))
	code, out, errOut := runCmd(t, t.Context(), "digest", "--dry-run", "--channel", "C1")
	if code != exitOK || out != "answered by the bot\n" {
		t.Fatalf("exit %d, %q %q", code, out, errOut)
	}
	if abs, _ := filepath.Abs(data); got.DataDir != abs || strings.Join(got.Args, " ") != "digest --dry-run --channel C1" {
		t.Errorf("the bot was asked %+v", got)
	}
	if _, err := os.Stat(filepath.Join(data, "index")); err == nil {
		t.Error("the CLI built an index although the bot answered")
	}
}

// TestRunEndpointRefuses: the command runner answers only JSON from this
// host, for the bot's own data directory, and only read-only commands.
func TestRunEndpointRefuses(t *testing.T) {
	data := t.TempDir()
	h := runHandler(Config{DataDir: data}, &liveParts{}, commands)
	body := func(dir string, args ...string) string {
		b, _ := json.Marshal(runRequest{Args: args, DataDir: dir})
		return string(b)
	}
	tests := []struct {
		name, remote, contentType, body string
		want                            int
	}{
		{"another host", "10.1.2.3:5555", "application/json", body(data, "search", "x"), http.StatusForbidden},
		{"a form post", "127.0.0.1:5555", "text/plain", body(data, "search", "x"), http.StatusUnsupportedMediaType},
		{"another data directory", "127.0.0.1:5555", "application/json", body("/elsewhere", "search", "x"), http.StatusConflict},
		{"not read-only", "127.0.0.1:5555", "application/json", body(data, "serve"), http.StatusBadRequest},
		{"unknown command", "[::1]:5555", "application/json", body(data, "rm"), http.StatusBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest("POST", runPath, strings.NewReader(tt.body))
			req.RemoteAddr = tt.remote
			req.Header.Set("Content-Type", tt.contentType)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tt.want {
				t.Fatalf("status %d, want %d: %s", rec.Code, tt.want, rec.Body.String())
			}
		})
	}
}
