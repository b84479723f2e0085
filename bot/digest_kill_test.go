package bot

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/boltstore"
	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/bot/slacktest"
)

// Environment of the child process of TestDigestKilledMidPost.
const (
	killChildEnv = "PAPERBOT_DIGEST_KILL_CHILD"
	killAPIEnv   = "PAPERBOT_DIGEST_KILL_API"
	killStoreEnv = "PAPERBOT_DIGEST_KILL_STORE"
)

var killNow = time.Date(2025, 3, 10, 9, 0, 30, 0, time.UTC)

// stallingStore stalls forever in MarkPosted after announcing it: the child
// is killed there, after Slack has the message and before the store knows.
type stallingStore struct{ digest.Store }

func (s stallingStore) MarkPosted(ctx context.Context, k digest.RunKey, ts string, at time.Time) error {
	os.Stdout.WriteString("POSTED " + ts + "\n")
	select {}
}

// digestBotFor builds a Bot with digests against an emulator's Web API
// without connecting its socket: enough to run the scheduler.
func digestBotFor(t *testing.T, apiURL string, store digest.Store, now time.Time) *digest.Scheduler {
	t.Helper()
	d := NewDigests(store, testIndex(t), digest.Config{Now: func() time.Time { return now }})
	b, err := New(Config{BotToken: slacktest.DefaultBotToken, AppToken: slacktest.DefaultAppToken, APIURL: apiURL,
		HTTPTimeout: 5 * time.Second}, testIndex(t), nil, d.Options()...)
	if err != nil {
		t.Fatal(err)
	}
	sched, err := d.Attach(b)
	if err != nil {
		t.Fatal(err)
	}
	return sched
}

// TestDigestKillChild is the child of TestDigestKilledMidPost.
func TestDigestKillChild(t *testing.T) {
	if os.Getenv(killChildEnv) == "" {
		t.Skip("child process of TestDigestKilledMidPost")
	}
	store, err := boltstore.Open(os.Getenv(killStoreEnv), boltstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sched := digestBotFor(t, os.Getenv(killAPIEnv), stallingStore{store}, killNow)
	sched.Tick(context.Background(), killNow) // never returns: stalls in MarkPosted
	t.Fatal("the tick returned instead of stalling")
}

// TestDigestKilledMidPost kills (SIGKILL) a process that has posted a digest
// but not yet recorded it, restarts on the same bbolt file and checks that
// the digest is recognised through its message metadata, recorded, and not
// posted a second time.
func TestDigestKilledMidPost(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process")
	}
	srv := slacktest.NewServer(slacktest.WithClock(func() time.Time { return killNow }))
	t.Cleanup(srv.Close)
	srv.SetChannel("CKILL0001", slacktest.Channel{Member: true})
	path := filepath.Join(t.TempDir(), boltstore.FileName)
	store, err := boltstore.Open(path, boltstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sub := digest.Subscription{ID: "skzzz2", ChannelID: "CKILL0001", CreatedBy: "UKILL0001", Topic: "learning",
		Schedule: digest.Schedule{Hour: 9, TZ: "UTC", Every: digest.Daily}, CreatedAt: killNow.Add(-time.Hour)}
	if err := store.Create(context.Background(), sub); err != nil {
		t.Fatal(err)
	}
	store.Close()

	cmd := exec.Command(os.Args[0], "-test.run=^TestDigestKillChild$")
	cmd.Env = append(os.Environ(), killChildEnv+"=1", killAPIEnv+"="+srv.APIURL(), killStoreEnv+"="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	guard := time.AfterFunc(time.Minute, func() { cmd.Process.Kill() })
	defer guard.Stop()
	lines := bufio.NewScanner(out)
	var postedTS string
	for lines.Scan() {
		if ts, ok := strings.CutPrefix(lines.Text(), "POSTED "); ok {
			postedTS = ts
			break
		}
	}
	if postedTS == "" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("child never posted: %v", lines.Err())
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()

	store, err = boltstore.Open(path, boltstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if err := store.Check(); err != nil {
		t.Fatalf("store corrupt after kill -9: %v", err)
	}
	key := digest.RunKey{SubscriptionID: sub.ID, Day: digest.DateOf(killNow)}
	if r, err := store.GetRun(context.Background(), key); err != nil || r.State != digest.Posting {
		t.Fatalf("after the kill the run is %+v (%v), want posting", r, err)
	}

	later := killNow.Add(30 * time.Second)
	sched := digestBotFor(t, srv.APIURL(), store, later)
	for range 3 { // the restarted process ticks on; nothing may post again
		if err := sched.Tick(context.Background(), later); err != nil {
			t.Fatal(err)
		}
		later = later.Add(30 * time.Second)
	}
	var digests []slacktest.Message
	for _, m := range srv.Messages("CKILL0001") {
		if m.Metadata != nil && m.Metadata.EventType == DigestEventType {
			digests = append(digests, m)
		}
	}
	if len(digests) != 1 || digests[0].TS != postedTS {
		t.Fatalf("%d digests after the restart (want the 1 posted before the kill, ts %s)", len(digests), postedTS)
	}
	r, _ := store.GetRun(context.Background(), key)
	if r.State != digest.Posted || r.TS != postedTS {
		t.Fatalf("run after recovery = %+v, want posted with ts %s", r, postedTS)
	}
	if c := sched.Counts(); c.Recovered != 1 || c.Posted != 0 {
		t.Fatalf("counts %+v, want 1 recovered and nothing posted", c)
	}
	ledger, _ := store.PostedIn(context.Background(), "CKILL0001", r.Papers)
	s, _ := store.Get(context.Background(), sub.ID)
	if len(ledger) != len(r.Papers) || s.PostedCount != len(r.Papers) || len(r.Papers) == 0 {
		t.Fatalf("ledger %v and count %d do not match the run's papers %v", ledger, s.PostedCount, r.Papers)
	}
}
