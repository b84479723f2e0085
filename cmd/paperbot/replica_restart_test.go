package main

import (
	"bufio"
	"bytes"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/pgstore/pgtest"
	"github.com/paperbot/paperbot/bot/slacktest"
)

// privatePostgres starts a PostgreSQL cluster of the test's own with
// .ci/postgres, so that restarting it disturbs no other test, and returns
// its database URL and a function running `.ci/postgres CMD DIR` (down, up).
// It skips, as pgtest does, when the tests have no PostgreSQL.
func privatePostgres(t *testing.T) (dbURL string, ctl func(cmd string)) {
	t.Helper()
	pgtest.ServerURL(t) // skips without a test server
	var stderr bytes.Buffer
	cmd := exec.Command("../../.ci/postgres")
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf(".ci/postgres: %v\n%s", err, stderr.String())
	}
	var dir string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), pgtest.EnvVar+"="); ok {
			dbURL = v
		}
		if v, ok := strings.CutPrefix(sc.Text(), "PAPERBOT_TEST_PGDATA="); ok {
			dir = v
		}
	}
	if dbURL == "" || dir == "" {
		t.Fatalf(".ci/postgres printed %q", out)
	}
	ctl = func(c string) {
		t.Helper()
		if out, err := exec.Command("../../.ci/postgres", c, dir).CombinedOutput(); err != nil {
			t.Fatalf(".ci/postgres %s: %v\n%s", c, err, out)
		}
	}
	t.Cleanup(func() { ctl("stop") })
	return dbURL, ctl
}

// PostgreSQL restarted under two serving replicas: commands sent while it
// is down (some delivered twice, some retried after a lost ack) are held,
// not answered, and answered exactly once when it is back; the replicas log
// the failure, keep running, answer commands before and after, and one of
// them takes the digest scheduler's lease again (its holder lost it while
// the database was down).
func TestReplicasRideOutDatabaseRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a PostgreSQL cluster and two serve processes")
	}
	dbURL, ctl := privatePostgres(t)
	srv := slacktest.NewServer(slacktest.WithSpread(), slacktest.WithRedelivery(time.Second, 3))
	t.Cleanup(srv.Close)
	srv.SetChannel(slacktest.DefaultChannel, slacktest.Channel{Member: true})
	env := replicaEnv(srv, dbURL, 2*time.Second)
	reps := []*replicaProc{startReplica(t, "a", env), startReplica(t, "b", env)}
	waitSockets(t, srv, 2)

	before := sendMentions(t, srv, 20, "before")
	waitAnsweredOnce(t, srv, dbURL, before, 30*time.Second)

	ctl("down")
	downAt := time.Now()
	during := sendMentions(t, srv, 20, "during")
	// Both replicas have met the failure and hold what they got.
	for _, p := range reps {
		p.waitLog(t, "shared de-duplication failed; holding the delivery and retrying", 30*time.Second)
	}
	// Long enough for Slack's retries of the lost acks, after the ack
	// window, to reach the other replica, which holds them too.
	lostAcks := map[string]bool{}
	for i, m := range during {
		if i%10 == 7 {
			lostAcks[m.env] = true
		}
	}
	err := srv.WaitFor(30*time.Second, func() bool {
		n := 0
		for _, d := range srv.Deliveries() {
			if lostAcks[d.Original] {
				n++
			}
		}
		return n >= len(lostAcks)
	})
	if err != nil {
		t.Fatalf("lost acks not retried: %v", err)
	}
	// And long enough for the digest scheduler's lease to run out: its
	// holder stops the scheduler when it cannot renew.
	holder := reps[0]
	if !strings.Contains(holder.logs.String(), leaseTaken) {
		holder = reps[1]
	}
	holder.waitLog(t, "lease lost: stopped here", 30*time.Second)
	if n := slices.Max(answersTo(srv, during)); n != 0 {
		t.Fatalf("a command was answered while the database was down")
	}
	ctl("up")
	upAt := time.Now()
	waitAnsweredOnce(t, srv, dbURL, during, 30*time.Second)
	var lastAnswer time.Time
	for _, m := range during {
		for _, r := range srv.Thread(slacktest.DefaultChannel, m.ts) {
			if r.Source == "chat.postMessage" && r.PostedAt.After(lastAnswer) {
				lastAnswer = r.PostedAt
			}
		}
	}

	after := sendMentions(t, srv, 20, "after")
	waitAnsweredOnce(t, srv, dbURL, after, 30*time.Second)

	// One replica runs the digest scheduler again.
	err = srv.WaitFor(30*time.Second, func() bool {
		return strings.Count(reps[0].logs.String()+reps[1].logs.String(), leaseTaken) == 2
	})
	if err != nil {
		t.Errorf("the digest scheduler's lease was not taken again after the restart: %v", err)
	}
	for _, p := range reps {
		if p.exited() {
			t.Fatalf("replica %s exited: %v", p.name, p.err)
		}
		if !strings.Contains(p.logs.String(), "shared de-duplication answers again") {
			t.Errorf("replica %s did not log its recovery", p.name)
		}
		if strings.Contains(p.logs.String(), "delivery dropped unanswered") {
			t.Errorf("replica %s dropped a delivery", p.name)
		}
	}
	t.Logf("database down %s; the 20 commands sent meanwhile were all answered once, the last %s after it was back",
		upAt.Sub(downAt).Round(time.Millisecond), lastAnswer.Sub(upAt).Round(time.Millisecond))
}
