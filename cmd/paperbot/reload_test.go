package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// jsonlCorpus returns n JSON Lines paper records, each with its own title
// and abstract.
func jsonlCorpus(n int) []string {
	var lines []string
	for i := range n {
		lines = append(lines, fmt.Sprintf(`{"title": "Study %d of sparse attention", "abstract": "Paper number %d shows how sparse attention variant %d scales transformers to long documents.", "year": 2024}`, i, i, i))
	}
	return lines
}

func writeLines(t *testing.T, path string, lines []string, tail string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"+tail), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestIndexRefusesToLosePapers: `paperbot index` over a data directory with
// a built index keeps it when the new corpus loses more than 2% of the
// papers or skips records, unless the operator overrides.
func TestIndexRefusesToLosePapers(t *testing.T) {
	full := jsonlCorpus(100)
	tests := []struct {
		name     string
		lines    []string
		tail     string // appended raw, e.g. half a record
		args     []string
		env      string // PAPERBOT_ALLOW_SHRINK
		wantCode int
		wantErr  []string
		papers   int // searchable afterwards
	}{
		{"cut in half by a copy", full[:50], full[50][:40], nil, "", exitError,
			[]string{"re-index refused", "50 papers where the live index has 100", "1 records were skipped", "papers.jsonl:51", "papers.jsonl", "--allow-shrink"}, 100},
		{"a few removed", full[:99], "", nil, "", exitOK, nil, 99},
		{"one added and one skipped", jsonlCorpus(101), `{"title": "broken`, nil, "", exitError, []string{"1 records were skipped", "papers.jsonl:102"}, 100},
		{"overridden by flag", full[:50], "", []string{"--allow-shrink"}, "", exitOK, nil, 50},
		{"overridden by environment", full[:50], "", nil, "true", exitOK, nil, 50},
		{"grown", append(full, jsonlCorpus(120)[100:]...), "", nil, "", exitOK, nil, 120},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clearEnv(t)
			corpus := filepath.Join(t.TempDir(), "papers.jsonl")
			t.Setenv("PAPERBOT_CORPUS", corpus)
			t.Setenv("PAPERBOT_DATA_DIR", t.TempDir())
			writeLines(t, corpus, full, "")
			if code, out, errOut := runCmd(t, t.Context(), "index"); code != exitOK || !strings.Contains(out, "100 papers") {
				t.Fatalf("first index: exit %d %q %q", code, out, errOut)
			}
			writeLines(t, corpus, tt.lines, tt.tail)
			t.Setenv("PAPERBOT_ALLOW_SHRINK", tt.env)
			code, out, errOut := runCmd(t, t.Context(), append([]string{"index"}, tt.args...)...)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d: %q %q", code, tt.wantCode, out, errOut)
			}
			for _, w := range tt.wantErr {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errOut)
				}
			}
			// The index in effect: query it with the corpus it was built from.
			if code != exitOK {
				writeLines(t, corpus, full, "")
			}
			_, out, _ = runCmd(t, t.Context(), "search", "--json", "-n", "1", "sparse attention")
			if want := fmt.Sprintf(`"total": %d`, tt.papers); !strings.Contains(out, want) {
				t.Errorf("after the re-index the index does not hold %d papers (%s)", tt.papers, firstLine(out, `"total"`))
			}
		})
	}
}

func firstLine(s, containing string) string {
	for line := range strings.Lines(s) {
		if strings.Contains(line, containing) {
			return strings.TrimSpace(line)
		}
	}
	return "no line with " + containing
}

// TestServeReloadRefusesToLosePapers: SIGHUP with a corpus file cut short
// keeps the live index, logs an error naming the file and the counts, and
// /metrics shows the refusal; a good file is then taken.
func TestServeReloadRefusesToLosePapers(t *testing.T) {
	srv, ln := emulatedSlack(t)
	addr := ln.Addr().String()
	corpus := filepath.Join(t.TempDir(), "papers.jsonl")
	full := jsonlCorpus(100)
	writeLines(t, corpus, full, "")
	t.Setenv("PAPERBOT_CORPUS", corpus)
	t.Setenv("PAPERBOT_DATA_DIR", t.TempDir())

	sv := startServe(t, ln)
	if err := srv.WaitConnected(1, 10*time.Second); err != nil {
		t.Fatalf("never connected: %v\n%s", err, sv.errOut.String())
	}
	metric := func(name string) string {
		resp, err := http.Get("http://" + addr + "/metrics")
		if err != nil {
			return ""
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		for line := range strings.Lines(string(b)) {
			if strings.HasPrefix(line, name+" ") {
				return strings.TrimSpace(line)
			}
		}
		return ""
	}
	hup := func(wantLog string) {
		t.Helper()
		if err := syscall.Kill(os.Getpid(), syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
		if err := srv.WaitFor(10*time.Second, func() bool { return strings.Contains(sv.errOut.String(), wantLog) }); err != nil {
			t.Fatalf("no %q after SIGHUP:\n%s", wantLog, sv.errOut.String())
		}
	}

	writeLines(t, corpus, full[:50], full[50][:40])
	hup("re-index refused")
	log := sv.errOut.String()
	for _, want := range []string{"live_papers=100", "new_papers=50", "skipped=1", "papers.jsonl", "PAPERBOT_ALLOW_SHRINK"} {
		if !strings.Contains(log, want) {
			t.Errorf("the refusal log lacks %q:\n%s", want, log)
		}
	}
	// The reload is recorded just after it logs: wait for it.
	_ = srv.WaitFor(10*time.Second, func() bool {
		return strings.HasSuffix(metric(`paperbot_reload_last_result{result="refused"}`), " 1")
	})
	if got := metric(`paperbot_reload_last_result{result="refused"}`); !strings.HasSuffix(got, " 1") {
		t.Errorf("metrics: %q, want the last reload refused", got)
	}
	if got := metric("paperbot_papers_indexed"); got != "paperbot_papers_indexed 100" {
		t.Errorf("metrics: %q, want the live 100 papers", got)
	}

	writeLines(t, corpus, jsonlCorpus(101), "")
	hup("re-indexed")
	_ = srv.WaitFor(10*time.Second, func() bool {
		return strings.HasSuffix(metric(`paperbot_reload_last_result{result="ok"}`), " 1")
	})
	if got := metric("paperbot_papers_indexed"); got != "paperbot_papers_indexed 101" {
		t.Errorf("metrics after a good reload: %q", got)
	}
	if got := metric(`paperbot_reload_last_result{result="ok"}`); !strings.HasSuffix(got, " 1") {
		t.Errorf("metrics: %q, want the last reload ok", got)
	}
	if got := metric("paperbot_reload_last_timestamp_seconds"); got == "" || strings.HasSuffix(got, " 0") {
		t.Errorf("metrics: no reload time: %q", got)
	}
	if code := sv.stop(); code != exitOK {
		t.Fatalf("serve exited %d: %s", code, sv.errOut.String())
	}
}
