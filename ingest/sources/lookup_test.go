package sources

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
)

// A pasted link's paper is looked up by its key on the service that
// serves it, from recorded answers: found, unknown, malformed, or another
// kind of link.
func TestLookUp(t *testing.T) {
	found := fixture(t, "arxiv-api-2026-search-cat-cs.CL-max3.atom.xml")
	empty := fixture(t, "arxiv-api-2026-idlist-empty-result.atom.xml")
	badID := fixture(t, "arxiv-api-2026-error-http400-bad-id.atom.xml")
	note := fixture(t, "openreview-v2-notes-iclr2024-accepted-limit1-scrubbed.json")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		switch {
		case r.URL.Path == "/api/query" && q.Get("id_list") == "2609.28471":
			w.Write(found)
		case r.URL.Path == "/api/query" && q.Get("id_list") == "2609.00001":
			w.Write(empty)
		case r.URL.Path == "/api/query":
			w.WriteHeader(http.StatusBadRequest)
			w.Write(badID)
		case r.URL.Path == "/notes" && q.Get("id") == "known":
			w.Write(note)
		case r.URL.Path == "/notes":
			w.Write([]byte(`{"notes":[],"count":0}`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	c := newTestClient(t, srv, newFakeClock(), nil)
	ctx := context.Background()

	r, err := c.LookUp(ctx, "arxiv:2609.28471")
	if err != nil || r.ArXivID != "2609.28471" || r.Title == "" || r.Abstract == "" || len(r.Authors) == 0 {
		t.Errorf("arxiv:2609.28471 = %+v, %v", r, err)
	}
	r, err = c.LookUp(ctx, "openreview:known")
	if err != nil || r.Title != "Synthetic title text 1." {
		t.Errorf("openreview:known = %+v, %v", r, err)
	}
	for _, key := range []string{"arxiv:2609.00001", "arxiv:bad", "openreview:unknown", "doi:10.1/x", "icml.cc/virtual/1", "arxiv:"} {
		if _, err := c.LookUp(ctx, key); !errors.Is(err, ErrNotFound) {
			t.Errorf("LookUp(%q) = %v, want ErrNotFound", key, err)
		}
	}
	srv.Close()
	if _, err := c.LookUp(ctx, "arxiv:2609.28471"); err == nil || errors.Is(err, ErrNotFound) {
		t.Errorf("unreachable arXiv: %v, want an error other than not found", err)
	}
}
