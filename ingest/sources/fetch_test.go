package sources

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"testing"
)

// fakeOpenReview serves /notes for one venue from the recorded listing,
// paged by offset and limit as OpenReview does, with a count.
type fakeOpenReview struct {
	notes []json.RawMessage

	mu      sync.Mutex
	queries []url.Values
}

func newFakeOpenReview(t *testing.T) *fakeOpenReview {
	t.Helper()
	var doc struct {
		Notes []json.RawMessage `json:"notes"`
	}
	if err := json.Unmarshal(fixture(t, "openreview-v2-notes-iclr2024-listing-count2260-trimmed3-scrubbed.json"), &doc); err != nil {
		t.Fatal(err)
	}
	return &fakeOpenReview{notes: doc.Notes}
}

func (f *fakeOpenReview) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f.mu.Lock()
	f.queries = append(f.queries, q)
	f.mu.Unlock()
	if r.URL.Path != "/notes" || q.Get("content.venueid") != "ICLR.cc/2024/Conference" {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"notes": []}`))
		return
	}
	limit, _ := strconv.Atoi(q.Get("limit"))
	offset, _ := strconv.Atoi(q.Get("offset"))
	end := min(offset+limit, len(f.notes))
	page := f.notes[min(offset, end):end]
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	json.NewEncoder(w).Encode(map[string]any{"count": len(f.notes), "notes": page})
}

func TestOpenReviewVenuePages(t *testing.T) {
	or := newFakeOpenReview(t)
	srv := httptest.NewServer(or)
	defer srv.Close()
	c := newTestClient(t, srv, newFakeClock(), nil)
	var ids []string
	var offsets []int
	n, err := c.OpenReviewVenue(context.Background(), "ICLR.cc/2024/Conference", 2, func(recs []Record, offset int) error {
		offsets = append(offsets, offset)
		for _, r := range recs {
			ids = append(ids, r.OpenReviewID)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != 3 || len(ids) != 3 || !slices.Equal(offsets, []int{0, 2}) {
		t.Errorf("n %d ids %q offsets %v", n, ids, offsets)
	}
	or.mu.Lock()
	defer or.mu.Unlock()
	for _, q := range or.queries {
		if q.Get("sort") != "number:asc" || q.Get("limit") != "2" {
			t.Errorf("query %v", q)
		}
	}
}

func TestOpenReviewToken(t *testing.T) {
	var auth []string
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auth = append(auth, r.URL.Path+" "+r.Header.Get("Authorization"))
		mu.Unlock()
		if r.URL.Path == "/notes" {
			w.Write([]byte(`{"notes": [], "count": 0}`))
			return
		}
		w.Write(fixture(t, "arxiv-rss-2026-cs.LG+cs.AI+cs.CL+stat.ML-trimmed.xml"))
	}))
	defer srv.Close()
	c := newTestClient(t, srv, newFakeClock(), func(c *Config) { c.OpenReviewToken = "s3cret" })
	if _, err := c.OpenReviewVenue(context.Background(), "ICLR.cc/2026/Conference", 0, func([]Record, int) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ArXivRSS(context.Background(), []string{"cs.LG"}); err != nil {
		t.Fatal(err)
	}
	if want := []string{"/notes Bearer s3cret", "/rss/cs.LG "}; !slices.Equal(auth, want) {
		t.Errorf("Authorization per request %q, want %q", auth, want)
	}
}

func TestOpenReviewVenueFailures(t *testing.T) {
	tests := []struct {
		name    string
		limit   int
		handler http.HandlerFunc
		check   func(t *testing.T, err error)
	}{
		{"browser check with 200", 0, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<!DOCTYPE html><html><head><title>Verifying your browser | OpenReview</title></head></html>"))
		}, func(t *testing.T, err error) {
			if !errors.Is(err, ErrUnexpectedContent) {
				t.Errorf("err = %v, want ErrUnexpectedContent", err)
			}
		}},
		{"html labelled json", 0, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte("<html><body>challenge</body></html>"))
		}, func(t *testing.T, err error) {
			if !errors.Is(err, ErrUnexpectedContent) {
				t.Errorf("err = %v, want ErrUnexpectedContent", err)
			}
		}},
		{"validation error", 0, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			w.Write(fixture(t, "openreview-v2-error-http400-limit-over-1000.json"))
		}, func(t *testing.T, err error) {
			var ae *APIError
			if !errors.As(err, &ae) || ae.Name != "ValidationError" {
				t.Errorf("err = %v, want the ValidationError", err)
			}
		}},
		{"limit over 1000", 1001, func(w http.ResponseWriter, r *http.Request) {
			t.Error("request sent")
		}, func(t *testing.T, err error) {
			if err == nil {
				t.Error("no error")
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.handler)
			defer srv.Close()
			c := newTestClient(t, srv, newFakeClock(), nil)
			_, err := c.OpenReviewVenue(context.Background(), "ICLR.cc/2024/Conference", tt.limit, func([]Record, int) error {
				t.Error("page handed over")
				return nil
			})
			tt.check(t, err)
		})
	}
}

func TestArXivRSSFetch(t *testing.T) {
	var path string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path = r.URL.Path
		w.Header().Set("Content-Type", "application/rss+xml")
		w.Write(fixture(t, "arxiv-rss-2026-cs.LG+cs.AI+cs.CL+stat.ML-trimmed.xml"))
	}))
	defer srv.Close()
	c := newTestClient(t, srv, newFakeClock(), nil)
	f, err := c.ArXivRSS(context.Background(), []string{"cs.LG", "cs.AI", "cs.CL", "stat.ML"})
	if err != nil {
		t.Fatal(err)
	}
	if path != "/rss/cs.LG+cs.AI+cs.CL+stat.ML" || len(f.Records) != 4 {
		t.Errorf("path %q, %d records", path, len(f.Records))
	}
	if _, err := c.ArXivRSS(context.Background(), []string{"cs.LG/../x"}); err == nil {
		t.Error("bad category accepted")
	}
}

func TestArXivQueryFetch(t *testing.T) {
	tests := []struct {
		name    string
		status  int
		file    string
		records int
		apiErr  bool
	}{
		{"results", 200, "arxiv-api-2026-search-cat-cs.CL-max3.atom.xml", 3, false},
		{"error feed with 400", 400, "arxiv-api-2026-error-http400-bad-id.atom.xml", 0, true},
		{"error feed with 200", 200, "arxiv-api-2019-error-invalid-id.atom.xml", 0, true},
		{"empty", 200, "arxiv-api-2026-idlist-empty-result.atom.xml", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/api/query" || r.URL.Query().Get("search_query") != "cat:cs.CL" {
					t.Errorf("request %v", r.URL)
				}
				w.Header().Set("Content-Type", "application/atom+xml")
				w.WriteHeader(tt.status)
				w.Write(fixture(t, tt.file))
			}))
			defer srv.Close()
			c := newTestClient(t, srv, newFakeClock(), nil)
			f, err := c.ArXivQuery(context.Background(), url.Values{"search_query": {"cat:cs.CL"}, "max_results": {"3"}})
			var ae *APIError
			if tt.apiErr != errors.As(err, &ae) {
				t.Fatalf("err = %v", err)
			}
			if !tt.apiErr && (err != nil || len(f.Records) != tt.records) {
				t.Errorf("err %v, %d records", err, len(f.Records))
			}
		})
	}
}
