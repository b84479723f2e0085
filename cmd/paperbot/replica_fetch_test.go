package main

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/bottest"
	"github.com/paperbot/paperbot/bot/pgstore"
	"github.com/paperbot/paperbot/bot/pgstore/pgtest"
	"github.com/paperbot/paperbot/bot/slacktest"
)

// paperbot fetch with a database stores what it fetched there, for the
// replicas to follow, and refuses while a serve replica holds the fetcher
// lease (two fetchers would each take a paper for new).
func TestFetchWithDatabase(t *testing.T) {
	dbURL, _ := pgtest.Fresh(t)
	srv := slacktest.NewServer()
	defer srv.Close()
	slackEnv(t, srv)
	feed, rss := fakeArXivToday(t, proteinDiffusion)
	for k, v := range map[string]string{"PAPERBOT_DATABASE_URL": dbURL, "PAPERBOT_DATA_DIR": t.TempDir(),
		"PAPERBOT_SOURCES": "arxiv:cs.LG", "PAPERBOT_CONTACT": "ops@example.org", "PAPERBOT_ARXIV_URL": rss} {
		t.Setenv(k, v)
	}
	code, out, errOut := runCmd(t, t.Context(), "fetch")
	if code != exitOK || !strings.Contains(out, "5 new papers (4 news)") || !strings.Contains(out, "index ready") {
		t.Fatalf("fetch: exit %d\n%s\n%s", code, out, errOut)
	}
	db, err := pgstore.Open(t.Context(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if entries, _, err := db.Feeds().Load(t.Context()); err != nil || len(entries) != 5 {
		t.Fatalf("the database holds %d fetched papers (%v), want 5", len(entries), err)
	}

	ctx, stop := context.WithCancel(t.Context())
	defer stop()
	var logs bottest.Buffer
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"serve"}, strings.NewReader(""), io.Discard, &logs) }()
	if err := srv.WaitFor(20*time.Second, func() bool { return strings.Contains(logs.String(), "lease=fetcher") }); err != nil {
		t.Fatalf("serve never took the fetcher lease:\n%s", logs.String())
	}
	before := len(feed.Requests())
	code, _, errOut = runCmd(t, t.Context(), "fetch")
	if code == exitOK || !strings.Contains(errOut, "holds the fetcher lease") || len(feed.Requests()) != before {
		t.Fatalf("fetch while serve holds the lease: exit %d, %d requests, %q; want a refusal and none", code, len(feed.Requests())-before, errOut)
	}
	stop()
	if code := <-done; code != exitOK {
		t.Fatalf("serve exited %d:\n%s", code, logs.String())
	}
}
