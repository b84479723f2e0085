package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot"
	"github.com/paperbot/paperbot/bot/bottest"
	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/bot/slacktest"
)

// runCmd runs one paperbot command in-process, as main would.
func runCmd(t *testing.T, ctx context.Context, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(ctx, args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

// clearEnv isolates a test from the developer's own PAPERBOT_/SLACK_ settings.
func clearEnv(t *testing.T) {
	t.Helper()
	for _, k := range configKeys(t) {
		t.Setenv(k, "")
	}
	t.Setenv("SLACK_API_URL", "https://slack.com/api/")
	t.Setenv("PAPERBOT_HTTP_ADDR", httpOff)
}

// runJSON runs a --json command that should succeed and decodes its output
// into v.
func runJSON(t *testing.T, v any, args ...string) {
	t.Helper()
	code, out, errOut := runCmd(t, t.Context(), args...)
	if code != exitOK {
		t.Fatalf("%q: exit %d: %s", args, code, errOut)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("%q: not JSON: %v\n%s", args, err, out)
	}
}

func TestAskAnswersOverEmbeddedSeeds(t *testing.T) {
	clearEnv(t)
	code, out, errOut := runCmd(t, t.Context(), "ask", "which paper makes LLM prefill faster?")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	first, _, _ := strings.Cut(out, "\n2. ")
	if !strings.Contains(first, "Speculative Prefill") || !strings.Contains(first, "> ") {
		t.Errorf("the first answer is not Speculative Prefill with its answer sentence:\n%s", first)
	}
}

// ask answers keywords with a sentence too, as a mention in Slack does: an
// answer is what ask is for.
func TestAskAnswersKeywords(t *testing.T) {
	clearEnv(t)
	var res struct {
		Results []struct{ Title, Answer string } `json:"results"`
	}
	if runJSON(t, &res, "ask", "--json", "-n", "1", "transition path sampling"); len(res.Results) != 1 {
		t.Fatalf("%d results, want 1", len(res.Results))
	}
	if r := res.Results[0]; !strings.Contains(r.Title, "Transition Path Sampling") || !strings.Contains(strings.ToLower(r.Answer), "transition path") {
		t.Errorf("ask \"transition path sampling\": %q answered %q; want the TPS paper with a sentence on it", r.Title, r.Answer)
	}
}

func TestSearchJSON(t *testing.T) {
	clearEnv(t)
	var res struct {
		Query   string           `json:"query"`
		NoMatch bool             `json:"no_match"`
		Results []map[string]any `json:"results"`
	}
	runJSON(t, &res, "search", "--json", "-n", "3", "kv cache compression")
	if res.Query != "kv cache compression" || res.NoMatch || len(res.Results) == 0 || len(res.Results) > 3 {
		t.Fatalf("unexpected results: %+v", res)
	}
	for _, field := range []string{"id", "title", "headline", "authors", "venue", "year", "url", "code_urls", "score", "snippet", "abstract"} {
		if _, ok := res.Results[0][field]; !ok {
			t.Errorf("result lacks %q", field)
		}
	}
	for _, list := range []string{"authors", "code_urls"} {
		if _, ok := res.Results[0][list].([]any); !ok {
			t.Errorf("%s is %v, want a JSON array", list, res.Results[0][list])
		}
	}
	if !strings.Contains(res.Results[0]["headline"].(string), "LaCache") {
		t.Errorf("top hit for kv cache compression = %v, want LaCache", res.Results[0]["headline"])
	}
}

// Flags may follow the query, and -words that are not flags are exclusions.
func TestQueryFlagsAnywhere(t *testing.T) {
	clearEnv(t)
	tests := []struct {
		name string
		args []string
		want string // in the first result
		not  string // nowhere in the output
	}{
		{"flags after the query", []string{"search", "kv", "cache", "-n", "1"}, "LaCache", "2. "},
		{"exclusion first", []string{"search", "-transformer", "diffusion", "-n=1"}, "1. ", "Transformer"},
		{"json after the query", []string{"search", "EQ-VAE", "--json", "-n", "1"}, `"query": "EQ-VAE"`, "2. "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCmd(t, t.Context(), tt.args...)
			if code != exitOK || !strings.Contains(out, tt.want) || strings.Contains(out, tt.not) {
				t.Fatalf("exit %d, want %q and not %q in:\n%s%s", code, tt.want, tt.not, out, errOut)
			}
		})
	}
}

func TestCommandErrorsAreFriendly(t *testing.T) {
	clearEnv(t)
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string
	}{
		{"unclosed quote", []string{"search", `"kv cache`}, exitError, "quote"},
		{"unknown id", []string{"show", "zzzzzzzz"}, exitError, "zzzzzzzz"},
		{"no query", []string{"search"}, exitUsage, "usage: paperbot search"},
		{"bad -n", []string{"search", "-n", "0", "x"}, exitUsage, "-n must be"},
		{"-n without a value", []string{"search", "x", "-n"}, exitUsage, "-n needs a value"},
		{"unknown command", []string{"frobnicate"}, exitUsage, "unknown command"},
		{"missing corpus file", []string{"search", "x"}, exitError, "nope.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "missing corpus file" {
				t.Setenv("PAPERBOT_CORPUS", t.TempDir()+"/nope.json")
			}
			code, out, errOut := runCmd(t, t.Context(), tt.args...)
			if code != tt.wantCode || !strings.Contains(errOut, tt.wantErr) {
				t.Fatalf("exit %d, stderr %q; want exit %d mentioning %q (stdout %q)", code, errOut, tt.wantCode, tt.wantErr, out)
			}
			if strings.Contains(errOut, "goroutine") || strings.Contains(errOut, "panic") {
				t.Fatalf("stack trace reached the user: %s", errOut)
			}
		})
	}
}

func TestIndexPersistsAndServesQueries(t *testing.T) {
	clearEnv(t)
	t.Setenv("PAPERBOT_DATA_DIR", t.TempDir())
	code, out, errOut := runCmd(t, t.Context(), "index")
	if code != exitOK || !strings.Contains(out, "57 papers") {
		t.Fatalf("index: exit %d, %q %q", code, out, errOut)
	}
	code, out, errOut = runCmd(t, t.Context(), "search", "-n", "1", "EQ-VAE")
	if code != exitOK || !strings.Contains(out, "EQ-VAE") {
		t.Fatalf("search after index: exit %d, %q %q", code, out, errOut)
	}
}

// listenLocal opens a loopback listener on port 0 for serve's HTTP
// endpoints (runOn) and points PAPERBOT_HTTP_ADDR at it for the CLI
// commands that talk to the running bot. Holding the port from the start,
// unlike listen-close-reuse, leaves no moment for another process to take it.
func listenLocal(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	t.Setenv("PAPERBOT_HTTP_ADDR", ln.Addr().String())
	return ln
}

// refusingAddr returns a loopback address whose listener drops every
// connection at once: an endpoint that is there but never healthy.
func refusingAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	return ln.Addr().String()
}

func slackEnv(t *testing.T, srv *slacktest.Server) {
	t.Helper()
	clearEnv(t)
	t.Setenv("SLACK_BOT_TOKEN", srv.BotToken())
	t.Setenv("SLACK_APP_TOKEN", srv.AppToken())
	t.Setenv("SLACK_API_URL", srv.APIURL())
}

// emulatedSlack starts the Slack emulator, points the environment at it
// and returns it with the listener serve's HTTP endpoints will use.
func emulatedSlack(t *testing.T) (*slacktest.Server, net.Listener) {
	t.Helper()
	srv := slacktest.NewServer()
	t.Cleanup(srv.Close)
	slackEnv(t, srv)
	return srv, listenLocal(t)
}

// TestServeEndToEnd runs `paperbot serve` as main does, against the Slack
// emulator: health endpoints, a slash command answered, a clean SIGTERM.
func TestServeEndToEnd(t *testing.T) {
	srv, ln := emulatedSlack(t)
	addr := ln.Addr().String()
	t.Setenv("PAPERBOT_DATA_DIR", t.TempDir())

	ctx, stop := context.WithCancel(t.Context())
	done := make(chan int, 1)
	var errOut bottest.Buffer
	go func() { done <- runOn(ctx, ln, []string{"serve"}, strings.NewReader(""), io.Discard, &errOut) }()

	if err := srv.WaitConnected(1, 10*time.Second); err != nil {
		stop()
		t.Fatalf("never connected: %v\n%s", err, errOut.String())
	}
	ready := func() bool {
		resp, err := http.Get("http://" + addr + "/readyz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}
	if err := srv.WaitFor(5*time.Second, ready); err != nil {
		t.Fatal("/readyz never turned ready")
	}

	env := srv.SlashCommand(slacktest.CommandOpts{UserID: "U1", ChannelID: "C1", Text: "kv cache compression"})
	if _, err := srv.WaitAck(env, 3*time.Second); err != nil {
		t.Fatalf("slash command not acked: %v", err)
	}
	var reply slacktest.ResponseURLPost
	err := srv.WaitFor(5*time.Second, func() bool {
		for _, p := range srv.ResponseURLPosts() {
			if p.Error == "" && strings.Contains(string(p.Blocks), "LaCache") {
				reply = p
				return true
			}
		}
		return false
	})
	if err != nil {
		t.Fatalf("no reply with LaCache: %+v", srv.ResponseURLPosts())
	}
	if reply.ResponseType == "in_channel" {
		t.Error("search results must be ephemeral")
	}

	// The running bot holds the store; the operator's dry run asks it.
	code, out, errOut2 := runCmd(t, t.Context(), "digest", "--dry-run", "--channel", "C1")
	if code != exitOK || !strings.Contains(out, "C1 has no active subscriptions") {
		t.Errorf("digest --dry-run while serving: exit %d, %q %q", code, out, errOut2)
	}

	stop() // as SIGTERM does
	select {
	case code := <-done:
		if code != exitOK {
			t.Fatalf("serve exited %d after SIGTERM: %s", code, errOut.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop within its shutdown grace")
	}
	if strings.Contains(errOut.String(), srv.BotToken()) || strings.Contains(errOut.String(), srv.AppToken()) {
		t.Fatal("a token reached the log")
	}
	if !strings.Contains(errOut.String(), "connected to Slack") || strings.Contains(errOut.String(), "kv cache") {
		t.Fatalf("the info log must show the connection but not what users typed:\n%s", errOut.String())
	}
}

func TestServeFailsFastOnBadToken(t *testing.T) {
	srv := slacktest.NewServer()
	defer srv.Close()
	slackEnv(t, srv)
	bad := "xoxb-wrong-token-value"
	t.Setenv("SLACK_BOT_TOKEN", bad)
	code, _, errOut := runCmd(t, t.Context(), "serve")
	if code == exitOK {
		t.Fatal("serve started with a wrong token")
	}
	if !strings.Contains(errOut, "invalid_auth") || strings.Contains(errOut, bad) {
		t.Fatalf("want one clear line naming invalid_auth and no token, got %q", errOut)
	}
	if srv.Connections() != 0 {
		t.Fatal("connected to Socket Mode despite a refused token")
	}
}

func TestCheckReportsMissingScopes(t *testing.T) {
	all := bot.RequiredScopes()
	tests := []struct {
		name    string
		scopes  []string
		wantOK  bool
		wantOut string
	}{
		{"all granted", all, true, "ready to go live"},
		{"one missing", all[1:], false, all[0]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := slacktest.NewServer(slacktest.WithScopes(tt.scopes...))
			defer srv.Close()
			slackEnv(t, srv)
			code, out, errOut := runCmd(t, t.Context(), "check")
			if (code == exitOK) != tt.wantOK || !strings.Contains(out+errOut, tt.wantOut) {
				t.Fatalf("exit %d, out %q, err %q; want ok=%v mentioning %q", code, out, errOut, tt.wantOK, tt.wantOut)
			}
		})
	}
}

// TestServeReindexesOnSIGHUP: papers added to the corpus files become
// searchable after SIGHUP, without a restart.
func TestServeReindexesOnSIGHUP(t *testing.T) {
	srv := slacktest.NewServer()
	defer srv.Close()
	slackEnv(t, srv)
	corpus := filepath.Join(t.TempDir(), "papers.jsonl")
	write := func(lines ...string) {
		if err := os.WriteFile(corpus, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	first := `{"title": "Sparse attention for long documents", "abstract": "We make attention over long documents sparse and fast, scaling transformers to book-length inputs.", "year": 2024}`
	added := `{"title": "Tardigrade cryptobiosis under vacuum", "abstract": "We study how tardigrades survive vacuum and radiation through cryptobiosis, a reversible halt of metabolism.", "year": 2024}`
	write(first)
	t.Setenv("PAPERBOT_CORPUS", corpus)
	t.Setenv("PAPERBOT_DATA_DIR", t.TempDir())

	ctx, stop := context.WithCancel(t.Context())
	defer stop()
	done := make(chan int, 1)
	var errOut bottest.Buffer
	go func() { done <- run(ctx, []string{"serve"}, strings.NewReader(""), io.Discard, &errOut) }()
	if err := srv.WaitConnected(1, 10*time.Second); err != nil {
		t.Fatalf("never connected: %v\n%s", err, errOut.String())
	}
	ask := func(text string) string {
		t.Helper()
		before := len(srv.ResponseURLPosts())
		srv.SlashCommand(slacktest.CommandOpts{UserID: "U1", ChannelID: "C1", Text: text})
		if err := srv.WaitFor(5*time.Second, func() bool { return len(srv.ResponseURLPosts()) > before }); err != nil {
			t.Fatalf("no reply to %q", text)
		}
		return srv.ResponseURLPosts()[before].Text
	}
	if reply := ask("tardigrade cryptobiosis"); strings.Contains(reply, "Tardigrade") {
		t.Fatalf("found a paper that is not in the corpus yet: %q", reply)
	}

	write(first, added)
	if err := syscall.Kill(os.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	if err := srv.WaitFor(10*time.Second, func() bool { return strings.Contains(errOut.String(), "re-indexed") }); err != nil {
		t.Fatalf("no re-index after SIGHUP:\n%s", errOut.String())
	}
	if reply := ask("tardigrade cryptobiosis"); !strings.Contains(reply, "Tardigrade") {
		t.Fatalf("the added paper is not found after SIGHUP: %q", reply)
	}
	stop()
	if code := <-done; code != exitOK {
		t.Fatalf("serve exited %d: %s", code, errOut.String())
	}
}

// Without a data directory, subscription commands explain why they are off
// instead of running "subscribe …" as a search.
func TestServeWithoutDataDirTurnsDigestsOff(t *testing.T) {
	srv := slacktest.NewServer()
	defer srv.Close()
	slackEnv(t, srv)
	ctx, stop := context.WithCancel(t.Context())
	defer stop()
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"serve"}, strings.NewReader(""), io.Discard, io.Discard) }()
	if err := srv.WaitConnected(1, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	srv.SlashCommand(slacktest.CommandOpts{UserID: "U1", ChannelID: "C1", Text: "subscribe graph neural networks"})
	err := srv.WaitFor(5*time.Second, func() bool {
		posts := srv.ResponseURLPosts()
		return len(posts) > 0 && strings.Contains(posts[0].Text, "PAPERBOT_DATA_DIR")
	})
	if err != nil {
		t.Fatalf("no explanation that digests are off: %+v", srv.ResponseURLPosts())
	}
	stop()
	if code := <-done; code != exitOK {
		t.Fatalf("serve exited %d", code)
	}
}

func TestVersionAndConfigCommands(t *testing.T) {
	clearEnv(t)
	code, out, _ := runCmd(t, t.Context(), "version")
	if code != exitOK || !strings.HasPrefix(out, "paperbot ") || !strings.Contains(out, "corpus: 57 papers") {
		t.Fatalf("version: exit %d, %q", code, out)
	}
	code, out, _ = runCmd(t, t.Context(), "config")
	for _, k := range configKeys(t) {
		if !strings.Contains(out, k+"=") {
			t.Errorf("config does not list %s", k)
		}
	}
	if code != exitOK {
		t.Fatalf("config: exit %d", code)
	}
}

func TestDigestPreviewOnlyFromLoopback(t *testing.T) {
	mux := http.NewServeMux()
	addDigestPreview(mux, nil, nil, 5, digest.Fresh{})
	var h http.Handler = mux
	req := httptest.NewRequest("GET", digestPreviewPath+"?channel=C1", nil)
	req.RemoteAddr = "10.1.2.3:5555"
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusForbidden {
		t.Fatalf("preview from another host answered %d, want 403", rec.Code)
	}
}

// serving is `paperbot serve` running in the background of a test.
type serving struct {
	errOut *bottest.Buffer
	cancel context.CancelFunc
	done   chan int
}

// startServe runs `paperbot serve` on ln until stopped or the test ends.
func startServe(t *testing.T, ln net.Listener) *serving {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	sv := &serving{errOut: &bottest.Buffer{}, cancel: cancel, done: make(chan int, 1)}
	go func() { sv.done <- runOn(ctx, ln, []string{"serve"}, strings.NewReader(""), io.Discard, sv.errOut) }()
	t.Cleanup(cancel)
	return sv
}

// stop cancels serve as SIGTERM does and returns its exit code, or -1 when
// it did not stop within its shutdown grace.
func (sv *serving) stop() int {
	sv.cancel()
	select {
	case code := <-sv.done:
		return code
	case <-time.After(15 * time.Second):
		return -1
	}
}
