package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

// TestMain lets the test binary stand in for paperbench: re-executed as a
// child (see spawn), it runs the child's role instead of the tests.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		if err := run(context.Background(), time.Now(), os.Args[1:], os.Stdout, os.Stderr); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestSmallBench runs the whole benchmark on a tiny corpus: both engines
// build, reopen in fresh processes and answer.
func TestSmallBench(t *testing.T) {
	var out, log bytes.Buffer
	args := []string{"-n", "300", "-queries", "20", "-runs", "1", "-work", t.TempDir(), "-corpora", "../../../shared/corpora/papercopilot-paperlists/*.json"}
	if err := run(t.Context(), time.Now(), args, &out, &log); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	table := out.String()
	for _, want := range []string{"| 300 synthetic papers | paperbot | bleve |", "| papers indexed | 300 | 300 |", "query p50 / p99"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
}

func TestSyntheticPapersAreDeterministicAndUnique(t *testing.T) {
	p, err := loadPools(nil)
	if err != nil {
		t.Fatal(err)
	}
	titles := map[string]bool{}
	for k := range 5000 {
		a, b := p.paper(k), p.paper(k)
		if a != b {
			t.Fatalf("paper %d differs between calls", k)
		}
		if titles[a.Title] {
			t.Fatalf("paper %d repeats the title %q", k, a.Title)
		}
		titles[a.Title] = true
	}
}

func TestCodeWordIsOneToOne(t *testing.T) {
	seen := map[string]int{}
	for k := range 200_000 {
		w := codeWord(k)
		if j, ok := seen[w]; ok {
			t.Fatalf("codeWord(%d) = codeWord(%d) = %q", k, j, w)
		}
		seen[w] = k
	}
}
