package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/boltstore"
	"github.com/paperbot/paperbot/bot/bottest"
	"github.com/paperbot/paperbot/bot/digest/digesttest"
	"github.com/paperbot/paperbot/bot/memory"
	"github.com/paperbot/paperbot/bot/pgstore"
	"github.com/paperbot/paperbot/bot/pgstore/pgtest"
	"github.com/paperbot/paperbot/bot/slacktest"
	"github.com/paperbot/paperbot/search"
)

// A database URL serve cannot use stops start-up with one message saying
// what to fix, before connecting to Slack, and never shows the password.
func TestServeRefusesUnusableDatabase(t *testing.T) {
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(closed.Addr().(*net.TCPAddr).Port)
	closed.Close()
	for _, tc := range []struct{ name, url, want string }{
		{"malformed", "postgress://paperbot:s3cret@db/paperbot", "PAPERBOT_DATABASE_URL is not a PostgreSQL URL"},
		{"unreachable", "postgres://paperbot:s3cret@127.0.0.1:" + port + "/paperbot?sslmode=disable", "cannot reach PostgreSQL at 127.0.0.1:" + port + "/paperbot"},
	} {
		t.Run(tc.name, func(t *testing.T) { serveRefusesDatabase(t, tc.url, tc.want) })
	}
}

// serveRefusesDatabase runs serve with the database url and fails the test
// unless start-up stops before Slack with one line saying want, without
// the password.
func serveRefusesDatabase(t *testing.T, url, want string) {
	t.Helper()
	srv := slacktest.NewServer()
	defer srv.Close()
	slackEnv(t, srv)
	t.Setenv("PAPERBOT_DATABASE_URL", url)
	// Bounded: a serve that ignored the database would run on.
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	code, _, errOut := runCmd(t, ctx, "serve")
	line := strings.TrimSpace(errOut)
	if code == exitOK || strings.Contains(line, "\n") || !strings.Contains(line, want) {
		t.Fatalf("exit %d, %q: want a refusal in one line saying %q", code, errOut, want)
	}
	t.Log(line)
	if strings.Contains(errOut, "s3cret") {
		t.Fatalf("the password reached stderr: %q", errOut)
	}
	if srv.Connections() != 0 {
		t.Error("connected to Slack with a database it may not use")
	}
}

// With PAPERBOT_DATABASE_URL and no data directory, serve keeps
// subscriptions in the database: one made by another replica is listed.
func TestServeKeepsSubscriptionsInDatabase(t *testing.T) {
	dbURL, _ := pgtest.Fresh(t)
	seed, err := pgstore.Open(t.Context(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	sub := digesttest.Sub("sk7m2q", "C1", "U1", 0)
	if err := seed.Create(t.Context(), sub); err != nil {
		t.Fatal(err)
	}
	seed.Close()

	srv := slacktest.NewServer()
	defer srv.Close()
	slackEnv(t, srv)
	t.Setenv("PAPERBOT_DATABASE_URL", dbURL)
	ctx, stop := context.WithCancel(t.Context())
	defer stop()
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"serve"}, strings.NewReader(""), io.Discard, io.Discard) }()
	if err := srv.WaitConnected(1, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	srv.SlashCommand(slacktest.CommandOpts{UserID: "U1", ChannelID: "C1", Text: "subscriptions"})
	err = srv.WaitFor(5*time.Second, func() bool {
		for _, p := range srv.ResponseURLPosts() {
			if strings.Contains(p.Text+string(p.Blocks), sub.ID) {
				return true
			}
		}
		return false
	})
	if err != nil {
		t.Fatalf("the database's subscription %s is not listed: %+v", sub.ID, srv.ResponseURLPosts())
	}
	stop()
	if code := <-done; code != exitOK {
		t.Fatalf("serve exited %d", code)
	}
}

// mentionPayload is an app_mention event_callback with a fixed event_id, as
// Slack would deliver it to one replica and retry it on another.
func mentionPayload(srv *slacktest.Server, eventID, ts, text string) json.RawMessage {
	raw, _ := json.Marshal(map[string]any{
		"token": slacktest.VerificationToken, "team_id": srv.TeamID(), "type": "event_callback", "event_id": eventID,
		"event_time": time.Now().Unix(),
		"event": map[string]any{
			"type": "app_mention", "user": slacktest.DefaultUser, "channel": slacktest.DefaultChannel,
			"text": "<@" + srv.BotUserID() + "> " + text, "ts": ts, "event_ts": ts,
		},
	})
	return raw
}

// Two replicas share the database, each with its own Socket Mode
// connection: events Slack hands to both (a retry on the other connection)
// are answered once, different events are each answered, and one replica
// runs the digest scheduler.
func TestReplicasAnswerEachEventOnce(t *testing.T) {
	dbURL, _ := pgtest.Fresh(t)
	var srvs []*slacktest.Server
	ctx, stop := context.WithCancel(t.Context())
	defer stop()
	done := make(chan int, 2)
	var logs bottest.Buffer
	defer func() {
		if t.Failed() {
			t.Log(logs.String())
		}
	}()
	for range 2 {
		srv := slacktest.NewServer()
		defer srv.Close()
		srv.SetChannel(slacktest.DefaultChannel, slacktest.Channel{Member: true})
		slackEnv(t, srv)
		t.Setenv("PAPERBOT_DATABASE_URL", dbURL)
		go func() { done <- run(ctx, []string{"serve"}, strings.NewReader(""), io.Discard, &logs) }()
		if err := srv.WaitConnected(1, 10*time.Second); err != nil {
			t.Fatal(err)
		}
		srvs = append(srvs, srv)
	}
	const events = 10
	for i := range events {
		ts := fmt.Sprintf("1700000000.%06d", i+1)
		for _, srv := range srvs {
			if _, err := srv.SendEvent(mentionPayload(srv, fmt.Sprintf("EvSAME%04d", i), ts, "kv cache compression")); err != nil {
				t.Fatal(err)
			}
		}
	}
	answers := func() int {
		n := 0
		for _, srv := range srvs {
			for _, m := range srv.Messages(slacktest.DefaultChannel) {
				if m.Source == "chat.postMessage" {
					n++
				}
			}
		}
		return n
	}
	if err := srvs[0].WaitFor(10*time.Second, func() bool { return answers() >= events }); err != nil {
		for _, srv := range srvs {
			for _, m := range srv.Messages(slacktest.DefaultChannel) {
				t.Logf("%s %s %.80s", m.Source, m.TS, m.Text)
			}
		}
		t.Fatalf("%d answers to %d events", answers(), events)
	}
	// Once both are settled a copy still on its way can only lose its
	// claim: the count is final.
	if err := srvs[0].WaitFor(10*time.Second, func() bool {
		return settled(t, srvs[0], dbURL) && settled(t, srvs[1], dbURL)
	}); err != nil {
		t.Fatalf("the deliveries never settled: %v", err)
	}
	if n := answers(); n != events {
		t.Fatalf("%d answers to %d events delivered to both replicas, want one each", n, events)
	}
	// One of the two runs the digest scheduler.
	if n := strings.Count(logs.String(), `msg="lease taken: running here" lease=digest-scheduler`); n != 1 {
		t.Errorf("%d replicas run the digest scheduler, want 1", n)
	}
	stop()
	for range 2 {
		if code := <-done; code != exitOK {
			t.Fatalf("serve exited %d", code)
		}
	}
}

// /readyz turns 503, naming the database, when the database stops answering.
func TestReadyReflectsDatabase(t *testing.T) {
	dbURL, _ := pgtest.Fresh(t)
	db, err := pgstore.Open(t.Context(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "ready") })
	h := readyWithDatabase(ok, db)
	get := func() *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/readyz", nil))
		return rec
	}
	if rec := get(); rec.Code != http.StatusOK {
		t.Fatalf("with the database up: %d %s", rec.Code, rec.Body)
	}
	db.Close() // as when the database goes away
	rec := get()
	if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), "database "+db.Where()) {
		t.Fatalf("with the database gone: %d %q, want 503 naming it", rec.Code, rec.Body)
	}
}

// store migrate copies a store file into an empty database, says what it
// copied, and refuses a database that is not empty.
func TestStoreMigrate(t *testing.T) {
	dbURL, _ := pgtest.Fresh(t)
	clearEnv(t)
	dir := t.TempDir()
	t.Setenv("PAPERBOT_DATA_DIR", dir)
	path, _ := writeStore(t, dir, 3)
	s, err := boltstore.Open(path, boltstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	key := digesttest.Key(subID(0), 0)
	for _, err := range []error{
		func() error { _, _, err := s.Claim(ctx, digesttest.Claim(key, "C1")); return err }(),
		s.Choose(ctx, key, []string{"p1", "p2"}, digesttest.T0),
		s.MarkPosted(ctx, key, "9.9", digesttest.T0),
		s.SetVote(ctx, memory.Vote{Channel: "C1", User: "U1", PaperID: "p1", Value: memory.Up, At: digesttest.T0}),
		func() error {
			_, err := s.Save(ctx, memory.User("U1"), memory.Saved{Paper: search.Paper{ID: "p2", Title: "A paper"}, SavedAt: digesttest.T0})
			return err
		}(),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	s.Close()

	code, out, errOut := runCmd(t, ctx, "store", "migrate", "--to", dbURL)
	want := "3 subscriptions, 1 digest runs, 2 posted papers, 1 saved papers, 1 votes (counts verified)"
	if code != exitOK || !strings.Contains(out, want) {
		t.Fatalf("store migrate: exit %d, %q %q; want %q", code, out, errOut, want)
	}
	db, err := pgstore.Open(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sub, err := db.Get(ctx, subID(0))
	if err != nil || sub.PostedCount != 2 {
		t.Fatalf("migrated subscription: %+v, %v", sub, err)
	}
	if posted, _ := db.PostedIn(ctx, "C1", []string{"p1", "p2", "p3"}); !posted["p1"] || !posted["p2"] || posted["p3"] {
		t.Errorf("migrated ledger: %v", posted)
	}
	if list, _ := db.List(ctx, memory.User("U1")); len(list) != 1 || list[0].Paper.Title != "A paper" {
		t.Errorf("migrated list: %+v", list)
	}

	code, _, errOut = runCmd(t, ctx, "store", "migrate", "--to", dbURL)
	if code == exitOK || !strings.Contains(errOut, "already holds 3 subscriptions") {
		t.Fatalf("second migrate: exit %d, %q: want a refusal", code, errOut)
	}
}
