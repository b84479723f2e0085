package ingest_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paperbot/paperbot/fault"
	"github.com/paperbot/paperbot/ingest"
	"github.com/paperbot/paperbot/ingest/sources"
)

// A pasted arXiv link of a paper the index lacks is fetched once, then
// served from the cache until it is stale; an unknown one is remembered as
// unknown for a day; an unreachable arXiv is an error, not "unknown".
func TestLinkFinder(t *testing.T) {
	found, err := os.ReadFile(filepath.Join("../../shared/feeds", "arxiv-api-2026-search-cat-cs.CL-max3.atom.xml"))
	if err != nil {
		t.Skipf("recorded response not present: %v", err)
	}
	empty, err := os.ReadFile(filepath.Join("../../shared/feeds", "arxiv-api-2026-idlist-empty-result.atom.xml"))
	if err != nil {
		t.Skipf("recorded response not present: %v", err)
	}
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		if r.URL.Query().Get("id_list") == "2609.28471" {
			w.Write(found)
			return
		}
		w.Write(empty)
	}))
	defer srv.Close()
	now := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	client, err := sources.NewClient(sources.Config{Contact: "ops@example.org", APIURL: srv.URL + "/api/query",
		Now: clock, Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }})
	if err != nil {
		t.Fatal(err)
	}
	f := ingest.NewLinkFinder(client, ingest.NewMemoryLinkCache(100), clock)
	ctx := context.Background()

	for i, link := range []string{"https://arxiv.org/abs/2609.28471", "https://arxiv.org/pdf/2609.28471v2", "https://huggingface.co/papers/2609.28471"} {
		p, err := f.FindPaper(ctx, link)
		if err != nil || p.Title == "" || p.Abstract == "" {
			t.Fatalf("FindPaper(%s) = %+v, %v", link, p, err)
		}
		if i > 0 && requests.Load() != 1 {
			t.Errorf("%s asked arXiv again (%d requests): the cache holds the paper", link, requests.Load())
		}
	}
	for range 2 {
		if _, err := f.FindPaper(ctx, "https://arxiv.org/abs/2609.00001"); !errors.Is(err, fault.NotFound) {
			t.Fatalf("unknown paper: %v, want NotFound", err)
		}
	}
	if got := requests.Load(); got != 2 {
		t.Errorf("%d requests, want 2: an unknown paper is remembered too", got)
	}
	now = now.Add(ingest.LinkNotFoundKeep + time.Minute)
	f.FindPaper(ctx, "https://arxiv.org/abs/2609.00001")
	f.FindPaper(ctx, "https://arxiv.org/abs/2609.28471")
	if got := requests.Load(); got != 3 {
		t.Errorf("%d requests, want 3: only the stale unknown paper is asked again", got)
	}
	if _, err := f.FindPaper(ctx, "https://example.org/not-a-paper"); !errors.Is(err, fault.NotFound) {
		t.Errorf("a link that is no paper: %v, want NotFound", err)
	}
	srv.Close()
	if _, err := f.FindPaper(ctx, "https://arxiv.org/abs/2609.99999"); err == nil || errors.Is(err, fault.NotFound) {
		t.Errorf("arXiv unreachable: %v, want an error that is not NotFound", err)
	}
}
