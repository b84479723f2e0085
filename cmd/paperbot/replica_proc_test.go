package main

import (
	"context"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/bottest"
	"github.com/paperbot/paperbot/bot/slacktest"
)

// replicaChildEnv marks the child process that TestReplicaChild turns into
// `paperbot serve`.
const replicaChildEnv = "PAPERBOT_TEST_REPLICA_CHILD"

// TestReplicaChild is `paperbot serve`, run as main runs it, in a child
// process of the replica failure tests: a process of its own, so that it
// can be killed with SIGKILL.
func TestReplicaChild(t *testing.T) {
	if os.Getenv(replicaChildEnv) != "1" {
		t.Skip("child process of the replica failure tests")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, []string{"serve"}, strings.NewReader(""), os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// replicaProc is one `paperbot serve` child process.
type replicaProc struct {
	name string
	cmd  *exec.Cmd
	logs *bottest.Buffer
	done chan struct{} // closed when the process has exited
	err  error         // its exit, once done is closed
}

// replicaEnv is the environment of a replica serving srv's app with its
// state in dbURL: leases of ttl, no HTTP listener, debug logs.
func replicaEnv(srv *slacktest.Server, dbURL string, ttl time.Duration) map[string]string {
	return map[string]string{
		"SLACK_BOT_TOKEN": srv.BotToken(), "SLACK_APP_TOKEN": srv.AppToken(), "SLACK_API_URL": srv.APIURL(),
		"PAPERBOT_DATABASE_URL": dbURL, "PAPERBOT_HTTP_ADDR": httpOff, "PAPERBOT_LOG_LEVEL": "debug",
		"PAPERBOT_LEASE_TTL": ttl.String(), "PAPERBOT_MEANING": "false",
	}
}

// startReplica starts `paperbot serve` in a child process with env (and
// none of the test's own PAPERBOT_ and SLACK_ variables). The test's cleanup
// stops it with SIGTERM, and shows its logs when the test failed.
func startReplica(t *testing.T, name string, env map[string]string) *replicaProc {
	t.Helper()
	p := &replicaProc{name: name, logs: &bottest.Buffer{}, done: make(chan struct{})}
	p.cmd = exec.Command(os.Args[0], "-test.run=^TestReplicaChild$", "-test.count=1")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PAPERBOT_") && !strings.HasPrefix(kv, "SLACK_") {
			p.cmd.Env = append(p.cmd.Env, kv)
		}
	}
	p.cmd.Env = append(p.cmd.Env, replicaChildEnv+"=1")
	for k, v := range env {
		p.cmd.Env = append(p.cmd.Env, k+"="+v)
	}
	p.cmd.Stdout, p.cmd.Stderr = p.logs, p.logs
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		p.stop(t)
		if t.Failed() {
			t.Logf("replica %s logs:\n%s", p.name, p.logs)
		}
	})
	return p
}

// exited reports whether the process has ended.
func (p *replicaProc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// kill9 kills the process with SIGKILL and waits for it to end.
func (p *replicaProc) kill9(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-p.done
}

// stop asks the process to shut down (SIGTERM) and waits for it; one that
// does not end within its shutdown grace and a margin is killed.
func (p *replicaProc) stop(t *testing.T) {
	t.Helper()
	if p.exited() {
		return
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
		if p.err != nil {
			t.Errorf("replica %s exited after SIGTERM: %v", p.name, p.err)
		}
	case <-time.After(20 * time.Second):
		_ = p.cmd.Process.Signal(syscall.SIGKILL)
		<-p.done
		t.Errorf("replica %s did not stop within 20s of SIGTERM", p.name)
	}
}

// waitLog waits until the process has logged a line containing s.
func (p *replicaProc) waitLog(t *testing.T, s string, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !strings.Contains(p.logs.String(), s) {
		if p.exited() {
			t.Fatalf("replica %s exited (%v) before logging %q", p.name, p.err, s)
		}
		if time.Now().After(deadline) {
			t.Fatalf("replica %s did not log %q within %s", p.name, s, timeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitSockets waits until srv holds n open Socket Mode connections.
func waitSockets(t *testing.T, srv *slacktest.Server, n int) {
	t.Helper()
	if err := srv.WaitFor(60*time.Second, func() bool { return srv.OpenConnections() >= n }); err != nil {
		t.Fatalf("%d replicas connected, want %d: %v", srv.OpenConnections(), n, err)
	}
}
