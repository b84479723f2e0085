package main

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/slacktest"
	"github.com/paperbot/paperbot/ingest/feedtest"
)

// TestFetchCommand runs `paperbot fetch` against a loopback arXiv: the
// day's papers are stored and indexed in the data directory (search finds
// them in a later process), and a second fetch the same day asks arXiv
// nothing.
func TestFetchCommand(t *testing.T) {
	clearEnv(t)
	srv, rss := fakeArXivToday(t, proteinDiffusion)
	t.Setenv("PAPERBOT_DATA_DIR", t.TempDir())
	t.Setenv("PAPERBOT_SOURCES", "arxiv:cs.LG,stat.ML")
	t.Setenv("PAPERBOT_CONTACT", "ops@example.org")
	t.Setenv("PAPERBOT_ARXIV_URL", rss)

	code, out, errOut := runCmd(t, t.Context(), "fetch")
	if code != exitOK {
		t.Fatalf("fetch: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"arxiv: ok", "5 new papers (4 news)", "index ready"} {
		if !strings.Contains(out, want) {
			t.Errorf("fetch output lacks %q:\n%s", want, out)
		}
	}
	code, out, errOut = runCmd(t, t.Context(), "search", "de novo protein design diffusion")
	if code != exitOK || !strings.Contains(out, "Diffusion models for de novo protein design") {
		t.Fatalf("search after fetch: exit %d\n%s\n%s", code, out, errOut)
	}
	before := len(srv.Requests())
	code, out, errOut = runCmd(t, t.Context(), "fetch")
	if code != exitOK || len(srv.Requests()) != before || !strings.Contains(out, "0 new papers") {
		t.Fatalf("second fetch the same day: exit %d, %d requests\n%s\n%s", code, len(srv.Requests())-before, out, errOut)
	}
}

func TestFetchConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name, sources, want string
	}{
		{"unknown kind", "arxiv:cs.LG; biorxiv:all", `entry 2 "biorxiv:all": unknown kind "biorxiv"`},
		{"nothing to fetch", "files:/corpus/*.jsonl", "follows no service"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clearEnv(t)
			t.Setenv("PAPERBOT_DATA_DIR", t.TempDir())
			t.Setenv("PAPERBOT_CONTACT", "ops@example.org")
			t.Setenv("PAPERBOT_SOURCES", tc.sources)
			code, _, errOut := runCmd(t, t.Context(), "fetch")
			if code != exitError || !strings.Contains(errOut, tc.want) {
				t.Fatalf("exit %d, stderr %q; want 2 and %q", code, errOut, tc.want)
			}
		})
	}
}

// TestServeFetchesSources: serve with PAPERBOT_SOURCES fetches at start,
// puts the papers in the live index (/paper new finds them) and reports
// the source on /metrics.
func TestServeFetchesSources(t *testing.T) {
	t.Run("new paper", func(t *testing.T) { testServeFetches(t, false) })
	// The operator's file holds the paper: it is neither added today nor new.
	t.Run("paper in files", func(t *testing.T) { testServeFetches(t, true) })
}

func testServeFetches(t *testing.T, inFiles bool) {
	srv, ln := emulatedSlack(t)
	addr := ln.Addr().String()
	t.Setenv("PAPERBOT_DATA_DIR", t.TempDir())
	_, rss := fakeArXivToday(t, proteinDiffusion)
	t.Setenv("PAPERBOT_SOURCES", "arxiv:cs.LG")
	addedToday := "paperbot_papers_added_today 4"
	if inFiles {
		file := filepath.Join(t.TempDir(), "papers.jsonl")
		if err := os.WriteFile(file, []byte(`{"title":"Diffusion models for de novo protein design.","abstract":"Our lab's copy: a diffusion model designs protein backbones de novo."}`+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		t.Setenv("PAPERBOT_CORPUS", file)
		addedToday = "paperbot_papers_added_today 3"
	}
	t.Setenv("PAPERBOT_CONTACT", "ops@example.org")
	t.Setenv("PAPERBOT_ARXIV_URL", rss)

	sv := startServe(t, ln)
	defer func() {
		if code := sv.stop(); code != exitOK {
			t.Errorf("serve exited %d (-1: did not stop): %s", code, sv.errOut.String())
		}
	}()
	fetched := func() bool {
		resp, err := http.Get("http://" + addr + "/metrics")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return strings.Contains(string(b), `paperbot_source_failing{source="arxiv"} 0`) &&
			!strings.Contains(string(b), `paperbot_source_last_success_timestamp_seconds{source="arxiv"} 0`) &&
			strings.Contains(string(b), addedToday)
	}
	if err := srv.WaitFor(15*time.Second, fetched); err != nil {
		t.Fatalf("/metrics never showed arXiv fetched:\n%s", sv.errOut.String())
	}
	// The catalog (and so /metrics) has them a moment before the index.
	if err := srv.WaitFor(15*time.Second, func() bool { return strings.Contains(sv.errOut.String(), "fetched papers indexed") }); err != nil {
		t.Fatalf("the fetched papers were never applied to the index:\n%s", sv.errOut.String())
	}
	env := srv.SlashCommand(slacktest.CommandOpts{UserID: "U1", ChannelID: "C1", Text: "new protein design"})
	if _, err := srv.WaitAck(env, 3*time.Second); err != nil {
		t.Fatalf("slash command not acked: %v", err)
	}
	if err := srv.WaitFor(5*time.Second, func() bool { return len(srv.ResponseURLPosts()) > 0 }); err != nil {
		t.Fatalf("/paper new never answered:\n%s", sv.errOut.String())
	}
	shown := false
	for _, p := range srv.ResponseURLPosts() {
		shown = shown || strings.Contains(string(p.Blocks), "Diffusion models for de novo protein design")
	}
	if shown == inFiles {
		t.Fatalf("/paper new shows the paper: %v, want %v: %+v\n%s", shown, !inFiles, srv.ResponseURLPosts(), sv.errOut.String())
	}
}

// TestFetchPaperInFiles: `paperbot fetch` with PAPERBOT_CORPUS holding a
// paper arXiv announces today: it is not counted new, and a search shows
// one card for it, the file's.
func TestFetchPaperInFiles(t *testing.T) {
	clearEnv(t)
	_, rss := fakeArXivToday(t, proteinDiffusion)
	file := filepath.Join(t.TempDir(), "papers.jsonl")
	if err := os.WriteFile(file, []byte(`{"title":"Diffusion Models for De Novo Protein Design","abstract":"Our lab's copy: a diffusion model designs protein backbones de novo, with wet-lab validation."}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PAPERBOT_CORPUS", file)
	t.Setenv("PAPERBOT_DATA_DIR", t.TempDir())
	t.Setenv("PAPERBOT_SOURCES", "arxiv:cs.LG,stat.ML")
	t.Setenv("PAPERBOT_CONTACT", "ops@example.org")
	t.Setenv("PAPERBOT_ARXIV_URL", rss)

	code, out, errOut := runCmd(t, t.Context(), "fetch")
	if code != exitOK || !strings.Contains(out, "4 new papers (3 news)") || !strings.Contains(out, "index ready") || !strings.Contains(out, ": 5 papers;") {
		t.Fatalf("fetch: exit %d; want 4 new papers beside the file's, 5 in the index\n%s\n%s", code, out, errOut)
	}
	code, out, errOut = runCmd(t, t.Context(), "search", "de novo protein design diffusion")
	if code != exitOK {
		t.Fatalf("search: exit %d\n%s\n%s", code, out, errOut)
	}
	if n := strings.Count(strings.ToLower(out), "diffusion models for de novo protein design"); n != 1 || !strings.Contains(out, "wet-lab") {
		t.Errorf("search shows the paper %d times (want once, the file's copy):\n%s", n, out)
	}
}

// proteinDiffusion is the paper the fake arXiv announces today in these tests.
var proteinDiffusion = feedtest.Paper{ArXivID: "2609.40001", Title: "Diffusion models for de novo protein design",
	Abstract: "We train a denoising diffusion model over protein backbones and use it for de novo protein design.", Categories: []string{"cs.LG"}}

// fakeArXivToday starts a loopback arXiv whose feed announces the recorded
// items and p today (arXiv's day, US Eastern), and returns it with its RSS
// URL.
func fakeArXivToday(t *testing.T, p feedtest.Paper) (*feedtest.Server, string) {
	t.Helper()
	rec, err := feedtest.Load("../../../shared/feeds")
	if err != nil {
		t.Fatal(err)
	}
	srv := feedtest.NewServer()
	t.Cleanup(srv.Close)
	loc, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().In(loc)
	srv.SetRSS(rec.RSS(time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, loc), true, p))
	rss, _, _ := srv.URLs()
	return srv, rss
}
