package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/paperbot/paperbot/bot/bottest"
	"github.com/paperbot/paperbot/bot/pgstore"
	"github.com/paperbot/paperbot/bot/pgstore/pgtest"
	"github.com/paperbot/paperbot/bot/slacktest"
	"github.com/paperbot/paperbot/ingest"
	"github.com/paperbot/paperbot/ingest/feedtest"
	"github.com/paperbot/paperbot/ingest/storetest"
)

// replicaPoll is PAPERBOT_CATALOG_POLL in these tests.
const replicaPoll = 250 * time.Millisecond

// Two serve replicas share the database: the one holding the fetcher lease
// fetches a new paper, and the other answers a search for it within the
// poll interval, from its own index, without fetching anything itself.
// Replicas may share one data directory (compose replicas on one volume)
// or each have their own (Kubernetes pods).
func TestReplicasSearchWhatTheHolderFetched(t *testing.T) {
	t.Run("shared data directory", func(t *testing.T) { testReplicaSearch(t, true) })
	t.Run("own data directories", func(t *testing.T) { testReplicaSearch(t, false) })
}

func testReplicaSearch(t *testing.T, shared bool) {
	dbURL, _ := pgtest.Fresh(t)
	ctx, stop := context.WithCancel(t.Context())
	defer stop()
	var logs bottest.Buffer
	defer func() {
		if t.Failed() {
			t.Log(logs.String())
		}
	}()
	dataDirs := []string{t.TempDir(), t.TempDir()}
	if shared {
		dataDirs[1] = dataDirs[0]
	}

	// The holder's arXiv holds its answer until the other replica is up,
	// so that the paper arrives while both serve.
	holderFeed, rss := fakeArXivToday(t, proteinDiffusion)
	asked, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	holderFeed.Hook(func(*http.Request) bool {
		once.Do(func() { close(asked) })
		<-release
		return true
	})
	releaseOnce := sync.OnceFunc(func() { close(release) })
	defer releaseOnce()
	// The other replica's arXiv: any request to it would be a fetch of its own.
	otherFeed := feedtest.NewServer()
	defer otherFeed.Close()
	otherRSS, _, _ := otherFeed.URLs()

	done := make(chan int, 2)
	var otherHTTP string
	start := func(dataDir, rss string) *slacktest.Server {
		t.Helper()
		srv := slacktest.NewServer()
		t.Cleanup(srv.Close)
		slackEnv(t, srv)
		t.Setenv("PAPERBOT_DATABASE_URL", dbURL)
		t.Setenv("PAPERBOT_DATA_DIR", dataDir)
		t.Setenv("PAPERBOT_SOURCES", "arxiv:cs.LG")
		t.Setenv("PAPERBOT_CONTACT", "ops@example.org")
		t.Setenv("PAPERBOT_ARXIV_URL", rss)
		t.Setenv("PAPERBOT_CATALOG_POLL", replicaPoll.String())
		ln := listenLocal(t)
		otherHTTP = ln.Addr().String()
		go func() { done <- runOn(ctx, ln, []string{"serve"}, strings.NewReader(""), io.Discard, &logs) }()
		if err := srv.WaitConnected(1, 20*time.Second); err != nil {
			t.Fatal(err)
		}
		return srv
	}
	start(dataDirs[0], rss)
	select {
	case <-asked: // the first replica holds the fetcher lease and is fetching
	case <-time.After(20 * time.Second):
		t.Fatal("the first replica never fetched")
	}
	other := start(dataDirs[1], otherRSS)

	query := "diffusion models for de novo protein design"
	answers := func() (shown bool) {
		t.Helper()
		before := len(other.ResponseURLPosts())
		other.SlashCommand(slacktest.CommandOpts{UserID: "U1", ChannelID: "C1", Text: query})
		if err := other.WaitFor(5*time.Second, func() bool { return len(other.ResponseURLPosts()) > before }); err != nil {
			t.Fatalf("the other replica did not answer %q", query)
		}
		for _, p := range other.ResponseURLPosts()[before:] {
			shown = shown || strings.Contains(string(p.Blocks), proteinDiffusion.Title)
		}
		return shown
	}
	if answers() {
		t.Fatal("the other replica shows the paper before it was fetched")
	}

	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	releaseOnce()
	// The fetch is committed when the paper's row is in the catalog.
	var committed time.Time
	for deadline := time.Now().Add(20 * time.Second); committed.IsZero(); {
		var n int
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM feed_papers WHERE convert_from(data, 'UTF8') LIKE '%' || $1 || '%'",
			proteinDiffusion.ArXivID).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			committed = time.Now()
		} else if time.Now().After(deadline) {
			t.Fatal("the holder never stored the paper")
		} else {
			time.Sleep(5 * time.Millisecond)
		}
	}
	// Within the bound: a poll, the apply, and the answer.
	bound := 20 * replicaPoll
	for !answers() {
		if time.Since(committed) > bound {
			t.Fatalf("the other replica still does not show the paper %s after the holder stored it", bound)
		}
		time.Sleep(20 * time.Millisecond)
	}
	took := time.Since(committed)
	t.Logf("propagation: the holder's fetch committed → the other replica answers with the paper: %s (poll %s)",
		took.Round(time.Millisecond), replicaPoll)

	// It reports the source as the holder left it.
	metrics := func() string {
		resp, err := http.Get("http://" + otherHTTP + "/metrics")
		if err != nil {
			return ""
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	if err := other.WaitFor(20*replicaPoll, func() bool {
		m := metrics()
		return strings.Contains(m, `paperbot_source_last_success_timestamp_seconds{source="arxiv"}`) &&
			!strings.Contains(m, `paperbot_source_last_success_timestamp_seconds{source="arxiv"} 0`)
	}); err != nil {
		t.Errorf("the other replica's /metrics does not show the holder's successful fetch:\n%s", metrics())
	}
	if n := len(otherFeed.Requests()); n != 0 {
		t.Errorf("the other replica asked its arXiv %d times; it should have fetched nothing", n)
	}
	if n := strings.Count(logs.String(), `msg="lease taken: running here" lease=fetcher`); n != 1 {
		t.Errorf("%d replicas took the fetcher lease, want 1", n)
	}
	// Each replica's index is its own.
	for i, dir := range []string{filepath.Join(dataDirs[0], "replica-1"), filepath.Join(dataDirs[1], "replica-1")} {
		if shared && i == 1 {
			dir = filepath.Join(dataDirs[0], "replica-2")
		}
		if _, err := os.Stat(filepath.Join(dir, "index", "CURRENT")); err != nil {
			t.Errorf("replica %d has no index of its own in %s: %v", i+1, dir, err)
		}
	}

	stop()
	for range 2 {
		if code := <-done; code != exitOK {
			t.Fatalf("serve exited %d", code)
		}
	}
}

// A replica that was down while another fetched catches up when it comes
// back, even though it reuses its index (the corpus files are unchanged):
// the mark in its replica directory says which changes the index holds.
func TestReplicaCatchesUpAfterRestart(t *testing.T) {
	dbURL, _ := pgtest.Fresh(t)
	srv := slacktest.NewServer()
	defer srv.Close()
	slackEnv(t, srv)
	file := filepath.Join(t.TempDir(), "papers.jsonl")
	if err := os.WriteFile(file, []byte(`{"title":"Sparse attention for long documents","abstract":"Block-sparse attention reads long documents in linear time."}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, rss := fakeArXivToday(t, feedtest.Paper{ArXivID: "2609.40002", Title: "Graph transformers for molecules",
		Abstract: "A graph transformer predicts molecular properties.", Categories: []string{"cs.LG"}})
	dataDir := t.TempDir()
	for k, v := range map[string]string{"PAPERBOT_DATABASE_URL": dbURL, "PAPERBOT_DATA_DIR": dataDir, "PAPERBOT_CORPUS": file,
		"PAPERBOT_SOURCES": "arxiv:cs.LG", "PAPERBOT_CONTACT": "ops@example.org", "PAPERBOT_ARXIV_URL": rss,
		"PAPERBOT_CATALOG_POLL": replicaPoll.String()} {
		t.Setenv(k, v)
	}
	var logs bottest.Buffer
	defer func() {
		if t.Failed() {
			t.Log(logs.String())
		}
	}()
	serve := func() (stop func()) {
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan int, 1)
		go func() { done <- run(ctx, []string{"serve"}, strings.NewReader(""), io.Discard, &logs) }()
		return func() {
			cancel()
			if code := <-done; code != exitOK {
				t.Fatalf("serve exited %d", code)
			}
		}
	}
	shows := func(title string) bool {
		t.Helper()
		before := len(srv.ResponseURLPosts())
		srv.SlashCommand(slacktest.CommandOpts{UserID: "U1", ChannelID: "C1", Text: strings.ToLower(title)})
		if err := srv.WaitFor(5*time.Second, func() bool { return len(srv.ResponseURLPosts()) > before }); err != nil {
			t.Fatalf("no answer to %q", title)
		}
		for _, p := range srv.ResponseURLPosts()[before:] {
			if strings.Contains(string(p.Blocks), title) {
				return true
			}
		}
		return false
	}

	stop := serve()
	if err := srv.WaitFor(20*time.Second, func() bool { return strings.Contains(logs.String(), "fetched papers indexed") }); err != nil {
		t.Fatal("the first run never indexed what it fetched")
	}
	if err := srv.WaitConnected(1, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	if !shows("Graph transformers for molecules") {
		t.Fatal("the replica does not show the paper it fetched")
	}
	stop()

	// While it is down, the fetching replica stores a paper.
	db, err := pgstore.Open(t.Context(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	late := storetest.Entry("k3m9q2vx", "Retrieval heads in language models")
	late.Record.Abstract = "Retrieval heads copy facts from the context in language models."
	if err := db.Feeds().Save(t.Context(), []ingest.Entry{late}, ingest.Progress{Source: "arxiv"}); err != nil {
		t.Fatal(err)
	}
	stop = serve()
	defer stop()
	if err := srv.WaitConnected(2, 20*time.Second); err != nil {
		t.Fatal(err)
	}
	if err := srv.WaitFor(10*time.Second, func() bool { return shows("Retrieval heads in language models") }); err != nil {
		t.Fatal("after its restart the replica does not show the paper stored while it was down")
	}
}
