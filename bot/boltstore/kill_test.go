package boltstore_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/boltstore"
	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/bot/digest/digesttest"
)

const killEnv = "BOLTSTORE_KILL9_PATH"

// subID turns a counter into a valid, distinct subscription ID.
func subID(i int) string {
	const alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
	b := []byte("saaaaa")
	for p := 5; p > 0 && i > 0; p-- {
		b[p] = alphabet[i%len(alphabet)]
		i /= len(alphabet)
	}
	return string(b)
}

// TestKill9Writer is the child of TestKill9: it writes whole digest cycles
// in a loop, printing each index after its last transaction committed, until
// it is killed. It does nothing unless started by TestKill9.
func TestKill9Writer(t *testing.T) {
	path := os.Getenv(killEnv)
	if path == "" {
		t.Skip("child process of TestKill9")
	}
	s, err := boltstore.Open(path, boltstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i := 0; ; i++ {
		id := subID(i)
		k := digesttest.Key(id, 0)
		steps := []func() error{
			func() error { return s.Create(ctx, digesttest.Sub(id, "C1", "U1", i)) },
			func() error { _, _, err := s.Claim(ctx, digesttest.Claim(k, "C1")); return err },
			func() error { return s.Choose(ctx, k, []string{"a" + id, "b" + id}, digesttest.T0) },
			func() error { return s.MarkPosted(ctx, k, strconv.Itoa(i)+".1", digesttest.T0) },
		}
		for _, step := range steps {
			if err := step(); err != nil {
				t.Fatal(err)
			}
		}
		fmt.Fprintf(os.Stdout, "committed %d\n", i)
	}
}

// TestKill9 SIGKILLs a process in the middle of writing and checks that the
// reopened file is sound and holds every cycle the child saw committed, each
// one whole: run posted, papers in the ledger, count bumped — or none of it.
func TestKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process")
	}
	path := filepath.Join(t.TempDir(), boltstore.FileName)
	cmd := exec.Command(os.Args[0], "-test.run=^TestKill9Writer$", "-test.v")
	cmd.Env = append(os.Environ(), killEnv+"="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	const want = 60
	lines := bufio.NewScanner(out)
	last := -1
	deadline := time.AfterFunc(time.Minute, func() { cmd.Process.Kill() })
	defer deadline.Stop()
	for last < want && lines.Scan() {
		if n, ok := strings.CutPrefix(lines.Text(), "committed "); ok {
			last, _ = strconv.Atoi(n)
		}
	}
	if last < want {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("child stopped after %d cycles: %v", last+1, lines.Err())
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL: no deferred code runs
		t.Fatal(err)
	}
	cmd.Wait()

	s := open(t, path)
	if err := s.Check(); err != nil {
		t.Fatalf("file corrupt after kill -9: %v", err)
	}
	ctx := context.Background()
	for i := 0; ; i++ {
		id := subID(i)
		sub, err := s.Get(ctx, id)
		if err != nil {
			if i <= last {
				t.Fatalf("cycle %d was committed but subscription %s is gone: %v", i, id, err)
			}
			t.Logf("killed after %d committed cycles; %d more partly written", last+1, i-last-1)
			break
		}
		run, err := s.GetRun(ctx, digesttest.Key(id, 0))
		posted := err == nil && run.State == digest.Posted
		if i <= last && !posted {
			t.Fatalf("cycle %d was committed but its run is %+v (%v)", i, run, err)
		}
		ledger, _ := s.PostedIn(ctx, "C1", []string{"a" + id, "b" + id})
		if wantCount := map[bool]int{true: 2, false: 0}[posted]; sub.PostedCount != wantCount || len(ledger) != wantCount {
			t.Fatalf("cycle %d torn: posted=%v count=%d ledger=%v", i, posted, sub.PostedCount, ledger)
		}
	}
}
