package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"github.com/paperbot/paperbot/bot/boltstore"
	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/search"
)

// While `paperbot serve` runs it holds the index directory and the
// subscription store (one writer each). The CLI then asks the bot instead:
// it posts its command line to the bot's loopback-only /debug/run, the bot
// runs the same command against its live index and store, and the CLI
// prints what the bot wrote and exits with its code. No second copy of the
// index is built and nothing waits on a lock.

// runPath is the loopback endpoint that runs a forwardable command.
const runPath = "/debug/run"

// runRequest is a command line sent to the running bot.
type runRequest struct {
	Args    []string `json:"args"`     // command name first
	Stdin   string   `json:"stdin"`    // for similar --text -
	DataDir string   `json:"data_dir"` // the CLI's, absolute: the bot answers only for its own
	Color   bool     `json:"color"`
}

// runResponse is what the command wrote, and its exit code.
type runResponse struct {
	Code   int    `json:"code"`
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
}

// liveParts are the running bot's index and store (store nil without a
// data directory), for commands run on behalf of the CLI.
type liveParts struct {
	ix    *search.Index
	store *boltstore.Store // the store file, for backups; nil with a database
	state stateStore       // where subscriptions live: store, or the database
	// fresh is the digests' arrival window (zero without sources).
	fresh digest.Fresh
}

// forwarded is returned by a command the running bot answered: its output
// is written, code is the exit code.
type forwarded struct{ code int }

func (f forwarded) Error() string {
	return fmt.Sprintf("answered by the running bot (exit %d)", f.code)
}

// forward asks a bot serving e's data directory to run the command name
// with args. It returns a forwarded error when the bot answered, and nil
// when no bot answers for this data directory (nothing listens, another
// service listens, or the bot serves another directory): the caller then
// runs the command itself.
func (e *env) forward(name string, args []string, stdin string) error {
	if e.live != nil || e.cfg.DataDir == "" || e.cfg.HTTPAddr == httpOff {
		return nil
	}
	base, err := localURL(e.cfg.HTTPAddr)
	if err != nil {
		return nil
	}
	dir, _ := filepath.Abs(e.cfg.DataDir)
	body, _ := json.Marshal(runRequest{Args: append([]string{name}, args...), Stdin: stdin, DataDir: dir, Color: e.color})
	client := &http.Client{
		Timeout:   2 * time.Minute, // a question over a large corpus, or a digest preview
		Transport: &http.Transport{DialContext: (&net.Dialer{Timeout: time.Second}).DialContext},
	}
	req, err := http.NewRequestWithContext(e.ctx, http.MethodPost, base+runPath, bytes.NewReader(body))
	if err != nil {
		return nil
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return nil // nothing listens: no bot running
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil
	}
	var out runResponse
	if err := json.NewDecoder(io.LimitReader(resp.Body, 64<<20)).Decode(&out); err != nil {
		return fmt.Errorf("the running bot's answer was cut short: %w", err)
	}
	fmt.Fprint(e.stdout, out.Stdout)
	fmt.Fprint(e.stderr, out.Stderr)
	return forwarded{out.Code}
}

// runHandler serves runPath inside `paperbot serve`: it runs forwardable
// commands for callers on this host (or in this pod) whose data directory
// is the bot's.
func runHandler(cfg Config, live *liveParts, table []command) http.HandlerFunc {
	ownDir, _ := filepath.Abs(cfg.DataDir)
	return func(w http.ResponseWriter, r *http.Request) {
		if host, _, err := net.SplitHostPort(r.RemoteAddr); err != nil || !net.ParseIP(host).IsLoopback() {
			http.Error(w, "only from this host", http.StatusForbidden)
			return
		}
		// JSON only: a web page cannot post it without a CORS preflight,
		// which this endpoint never grants.
		if r.Header.Get("Content-Type") != "application/json" {
			http.Error(w, "want application/json", http.StatusUnsupportedMediaType)
			return
		}
		var req runRequest
		if err := json.NewDecoder(io.LimitReader(r.Body, 4<<20)).Decode(&req); err != nil || len(req.Args) == 0 {
			http.Error(w, "want a JSON command line", http.StatusBadRequest)
			return
		}
		if cfg.DataDir == "" || req.DataDir != ownDir {
			http.Error(w, "this bot serves another data directory", http.StatusConflict)
			return
		}
		cmd := findCommand(table, req.Args[0])
		if cmd == nil || !forwardable(cmd.name) {
			http.Error(w, "not a command the bot answers", http.StatusBadRequest)
			return
		}
		var stdout, stderr strings.Builder
		e := &env{ctx: r.Context(), stdin: strings.NewReader(req.Stdin), stdout: &stdout, stderr: &stderr,
			cfg: cfg, color: req.Color, live: live, commands: table}
		code := runCommand(e, cmd, req.Args[1:])
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(runResponse{Code: code, Stdout: stdout.String(), Stderr: stderr.String()})
	}
}

// queryIndex returns the index a query command answers from: the running
// bot's when the command runs inside it, else one opened here. done
// releases it.
func (e *env) queryIndex() (ix *search.Index, done func(), err error) {
	if e.live != nil {
		return e.live.ix, func() {}, nil
	}
	ix, _, err = openIndex(e.ctx, e.cfg, quietLogger(e), progressOut(e.stderr))
	if err != nil {
		return nil, nil, err
	}
	return ix, func() { _ = ix.Close() }, nil
}

var errNoLiveStore = errors.New("PAPERBOT_DATA_DIR is not set, so there are no subscriptions to show")
