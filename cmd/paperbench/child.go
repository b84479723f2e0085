package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/paperbot/paperbot/search"
)

// A measurement runs in a child process (this binary, re-executed with
// -child), so start-up and memory figures are those of a fresh process and
// one engine's memory never inflates the other's.

// Child roles.
const (
	roleBuild = "build" // build the index from the corpus
	roleFirst = "first" // open a built index and answer one query
	roleQuery = "query" // open, warm up, then time queries
)

// childResult is what a child prints as its one line of JSON; the parent
// adds the peak RSS from the child's rusage.
type childResult struct {
	Papers   int     `json:"papers"`
	Seconds  float64 `json:"seconds"`
	Segments int     `json:"segments"`
	RSSKB    int     `json:"rss_kb"` // resident set when the work was done
	P50ms    float64 `json:"p50_ms,omitempty"`
	P99ms    float64 `json:"p99_ms,omitempty"`
	PeakKB   int     `json:"-"`
}

// runChild performs one role and writes its childResult to w. started is
// when the process started, so open-to-first-answer includes everything.
func runChild(ctx context.Context, started time.Time, role, name, corpus, dir string, nq int, w io.Writer) error {
	var r childResult
	switch role {
	case roleBuild:
		n, err := build(ctx, name, corpus, dir)
		if err != nil {
			return err
		}
		r.Papers, r.Seconds = n, time.Since(started).Seconds()
	case roleFirst, roleQuery:
		e, err := openEngine(ctx, name, corpus, dir)
		if err != nil {
			return err
		}
		defer e.close()
		if _, err := e.search(ctx, search.BenchmarkQueries[1]); err != nil {
			return err
		}
		r.Seconds = time.Since(started).Seconds()
		r.Papers, r.Segments = e.papers(), e.segments()
		if role == roleQuery {
			if r.P50ms, r.P99ms, err = latency(ctx, e, nq); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("unknown role %q", role)
	}
	r.RSSKB = currentRSSKB()
	return json.NewEncoder(w).Encode(r)
}

// latency runs every query once to warm up, then nq queries round robin,
// and returns the 50th and 99th percentile in milliseconds.
func latency(ctx context.Context, e engine, nq int) (p50, p99 float64, err error) {
	for _, q := range search.BenchmarkQueries {
		if _, err := e.search(ctx, q); err != nil {
			return 0, 0, fmt.Errorf("%q: %w", q, err)
		}
	}
	lat := make([]time.Duration, 0, nq)
	for i := range nq {
		t := time.Now()
		if _, err := e.search(ctx, search.BenchmarkQueries[i%len(search.BenchmarkQueries)]); err != nil {
			return 0, 0, err
		}
		lat = append(lat, time.Since(t))
	}
	slices.Sort(lat)
	pct := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	return pct(0.50), pct(0.99), nil
}

// currentRSSKB reads VmRSS from /proc (Linux); 0 elsewhere.
func currentRSSKB() int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			return n
		}
	}
	return 0
}

// spawn runs this binary as a child in role and returns its result with its
// peak RSS.
func spawn(ctx context.Context, role, name, corpus, dir string, nq int) (childResult, error) {
	self, err := os.Executable()
	if err != nil {
		return childResult{}, err
	}
	cmd := exec.CommandContext(ctx, self, "-child", role, "-engine", name, "-corpus", corpus, "-dir", dir, "-queries", strconv.Itoa(nq))
	cmd.Env = append(os.Environ(), childEnv+"=1")
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return childResult{}, fmt.Errorf("%s %s: %w: %s", name, role, err, strings.TrimSpace(errOut.String()))
	}
	var r childResult
	if err := json.Unmarshal([]byte(out.String()), &r); err != nil {
		return childResult{}, fmt.Errorf("%s %s: bad result %q: %w", name, role, out.String(), err)
	}
	r.PeakKB = peakRSSKB(cmd.ProcessState)
	return r, nil
}

// childEnv marks a child process, so a test binary re-executed as a child
// runs the role instead of the tests.
const childEnv = "PAPERBENCH_CHILD"
