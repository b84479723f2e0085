package main

import (
	"context"
	"io"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/digest/digesttest"
	"github.com/paperbot/paperbot/bot/pgstore"
	"github.com/paperbot/paperbot/bot/pgstore/pgtest"
	"github.com/paperbot/paperbot/bot/slacktest"
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
		t.Run(tc.name, func(t *testing.T) {
			srv := slacktest.NewServer()
			defer srv.Close()
			slackEnv(t, srv)
			t.Setenv("PAPERBOT_DATABASE_URL", tc.url)
			// Bounded: a serve that ignored the database would run on.
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			defer cancel()
			code, _, errOut := runCmd(t, ctx, "serve")
			if code == exitOK || !strings.Contains(errOut, tc.want) {
				t.Fatalf("exit %d, %q: want a refusal saying %q", code, errOut, tc.want)
			}
			if strings.Contains(errOut, "s3cret") {
				t.Fatalf("the password reached stderr: %q", errOut)
			}
			if srv.Connections() != 0 {
				t.Error("connected to Slack with an unusable database")
			}
		})
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
