package sources

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// withToken puts a resumptionToken at the end of a recorded ListRecords
// page, turning a single recorded page into one of a multi-page listing.
func withToken(t *testing.T, body []byte, token string, cursor, size int) []byte {
	t.Helper()
	s := string(body)
	i := strings.LastIndex(s, "</ListRecords>")
	if i < 0 {
		t.Fatal("no </ListRecords>")
	}
	tok := fmt.Sprintf(`<resumptionToken cursor="%d" completeListSize="%d">%s</resumptionToken>`, cursor, size, token)
	return []byte(s[:i] + tok + s[i:])
}

// deletedPage is a last page holding one deleted record. arXiv's own
// deleted records were never recorded; this follows OAI-PMH 2.0.
const deletedPage = `<?xml version="1.0" encoding="UTF-8"?>
<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2026-01-06T00:00:00Z</responseDate>
<request verb="ListRecords">http://export.arxiv.org/oai2</request>
<ListRecords><record><header status="deleted"><identifier>oai:arXiv.org:2601.00001</identifier>
<datestamp>2026-01-06</datestamp><setSpec>cs</setSpec></header></record>
<resumptionToken cursor="49" completeListSize="50"></resumptionToken></ListRecords></OAI-PMH>`

// fakeOAI serves a three-page ListRecords listing built from recorded pages,
// and can answer a request with a 503 storm first.
type fakeOAI struct {
	t     *testing.T
	pages map[string][]byte // by resumptionToken, "" for the first request

	mu       sync.Mutex
	queries  []url.Values
	storm    map[string]int // token -> 503s still to send
	failures map[string]int // token -> 500s still to send
}

func newFakeOAI(t *testing.T) *fakeOAI {
	return &fakeOAI{
		t: t,
		pages: map[string][]byte{
			"":          withToken(t, fixture(t, "arxiv-oai-2016-listrecords-arXiv-set-cs.xml"), "7000|1001", 0, 50),
			"7000|1001": withToken(t, fixture(t, "arxiv-oai-2026-listrecords-arXiv-set-physics.plasm-ph-oaipmh.arxiv.org.xml"), "7000|2001", 46, 50),
			"7000|2001": []byte(deletedPage),
			"expired|0": []byte(`<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2026-01-06T00:00:00Z</responseDate><error code="badResumptionToken">expired</error></OAI-PMH>`),
			"echo|0":    withToken(t, []byte(deletedPage), "echo|0", 0, 1),
		},
		storm:    map[string]int{},
		failures: map[string]int{},
	}
}

func (f *fakeOAI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	tok := q.Get("resumptionToken")
	f.mu.Lock()
	f.queries = append(f.queries, q)
	storm, fail := f.storm[tok], f.failures[tok]
	if storm > 0 {
		f.storm[tok]--
	}
	if fail > 0 {
		f.failures[tok]--
	}
	f.mu.Unlock()
	switch {
	case storm > 0:
		w.Header().Set("Retry-After", "5")
		http.Error(w, "Retry after 5 seconds", http.StatusServiceUnavailable)
		return
	case fail > 0:
		http.Error(w, "boom", http.StatusInternalServerError)
		return
	}
	body, ok := f.pages[tok]
	if !ok {
		f.t.Errorf("unexpected token %q", tok)
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/xml; charset=utf-8")
	w.Write(body)
}

func (f *fakeOAI) Queries() []url.Values {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.queries)
}

func TestHarvestOAIFollowsTokens(t *testing.T) {
	oai := newFakeOAI(t)
	oai.storm["7000|1001"] = 2
	srv := httptest.NewServer(oai)
	defer srv.Close()
	clock := newFakeClock()
	c := newTestClient(t, srv, clock, nil)

	var got []Record
	var progress []OAIProgress
	final, err := c.HarvestOAI(context.Background(), OAIQuery{Set: "cs", From: "2015-01-16", Until: "2026-01-06"}, func(recs []Record, p OAIProgress) error {
		got = append(got, recs...)
		progress = append(progress, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 50 || final.Records != 50 || final.Pages != 3 || !final.Done || final.Token != "" {
		t.Fatalf("%d records, final %+v", len(got), final)
	}
	tokens := []string{}
	for _, p := range progress {
		tokens = append(tokens, p.Token)
	}
	if !slices.Equal(tokens, []string{"7000|1001", "7000|2001", ""}) {
		t.Errorf("tokens %q", tokens)
	}
	if progress[0].Cursor != 0 || progress[0].CompleteListSize != 50 || progress[0].LastDatestamp != "2015-01-16" {
		t.Errorf("first progress %+v", progress[0])
	}
	if final.LastDatestamp != "2026-01-06" {
		t.Errorf("last datestamp %q", final.LastDatestamp)
	}
	if last := got[len(got)-1]; last.Announce != AnnounceWithdrawn || last.ArXivID != "2601.00001" {
		t.Errorf("last record %+v", last)
	}
	qs := oai.Queries()
	if len(qs) != 5 {
		t.Fatalf("%d requests, want 5 (3 pages, 2 answered 503)", len(qs))
	}
	first := qs[0]
	if first.Get("verb") != "ListRecords" || first.Get("metadataPrefix") != "arXiv" || first.Get("set") != "cs" || first.Get("from") != "2015-01-16" || first.Get("until") != "2026-01-06" {
		t.Errorf("first request %v", first)
	}
	for _, q := range qs[1:] {
		if len(q) != 2 || q.Get("verb") != "ListRecords" || q.Get("resumptionToken") == "" {
			t.Errorf("resumption request %v: OAI-PMH sends the token alone", q)
		}
	}
	// 3 s between pages, 5 s for each 503, then nothing extra: all on the fake clock.
	if want := []time.Duration{3 * time.Second, 5 * time.Second, 5 * time.Second, 3 * time.Second}; !slices.Equal(clock.Slept(), want) {
		t.Errorf("slept %v, want %v", clock.Slept(), want)
	}
}

func TestHarvestOAIResumesFromToken(t *testing.T) {
	oai := newFakeOAI(t)
	oai.failures["7000|2001"] = 1 // the harvest is interrupted before page 3
	srv := httptest.NewServer(oai)
	defer srv.Close()
	c := newTestClient(t, srv, newFakeClock(), nil)

	// What a caller persists after each page.
	saved := OAIProgress{}
	seen := map[string]int{}
	store := func(recs []Record, p OAIProgress) error {
		for _, r := range recs {
			seen[r.ArXivID]++
		}
		saved = p
		return nil
	}
	_, err := c.HarvestOAI(context.Background(), OAIQuery{Set: "cs"}, store)
	var he *HTTPError
	if !errors.As(err, &he) || he.Status != 500 {
		t.Fatalf("err = %v, want the HTTP 500", err)
	}
	if saved.Token != "7000|2001" || saved.Done {
		t.Fatalf("saved progress %+v", saved)
	}
	final, err := c.HarvestOAI(context.Background(), OAIQuery{Token: saved.Token}, store)
	if err != nil {
		t.Fatal(err)
	}
	if !final.Done || final.Pages != 1 || len(seen) != 50 {
		t.Errorf("final %+v, %d distinct records", final, len(seen))
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("%s harvested %d times", id, n)
		}
	}
	if qs := oai.Queries(); qs[len(qs)-1].Get("resumptionToken") != "7000|2001" {
		t.Errorf("resumed with %v", qs[len(qs)-1])
	}
}

func TestHarvestOAIStopsOnCallbackError(t *testing.T) {
	srv := httptest.NewServer(newFakeOAI(t))
	defer srv.Close()
	c := newTestClient(t, srv, newFakeClock(), nil)
	stop := errors.New("disk full")
	p, err := c.HarvestOAI(context.Background(), OAIQuery{}, func([]Record, OAIProgress) error { return stop })
	if !errors.Is(err, stop) || p.Pages != 1 || p.Token != "7000|1001" {
		t.Errorf("err = %v, progress %+v", err, p)
	}
}

func TestHarvestOAIErrors(t *testing.T) {
	tests := []struct {
		name   string
		token  string
		body   string
		target error
	}{
		{"stale token", "expired|0", "", ErrBadResumptionToken},
		{"server repeats the token", "echo|0", "", ErrUnexpectedContent},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(newFakeOAI(t))
			defer srv.Close()
			c := newTestClient(t, srv, newFakeClock(), nil)
			_, err := c.HarvestOAI(context.Background(), OAIQuery{Token: tt.token}, func([]Record, OAIProgress) error { return nil })
			if !errors.Is(err, tt.target) {
				t.Errorf("err = %v, want %v", err, tt.target)
			}
		})
	}
}

func TestHarvestOAIRejectsBadDates(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Error("request sent")
	}))
	defer srv.Close()
	c := newTestClient(t, srv, newFakeClock(), nil)
	for _, q := range []OAIQuery{{From: "2026-01-05T00:00:00Z"}, {Until: "yesterday"}} {
		if _, err := c.HarvestOAI(context.Background(), q, func([]Record, OAIProgress) error { return nil }); err == nil {
			t.Errorf("%+v accepted", q)
		}
	}
}

func TestHarvestOAINoRecordsMatch(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2026-01-06T00:00:00Z</responseDate>
<request verb="ListRecords">http://export.arxiv.org/oai2</request><error code="noRecordsMatch">The combination of the values of the from, until, set and metadataPrefix arguments results in an empty list.</error></OAI-PMH>`)
	}))
	defer srv.Close()
	c := newTestClient(t, srv, newFakeClock(), nil)
	calls := 0
	p, err := c.HarvestOAI(context.Background(), OAIQuery{From: "2026-01-10"}, func(recs []Record, p OAIProgress) error {
		calls++
		if len(recs) != 0 || !p.Done {
			t.Errorf("recs %d progress %+v", len(recs), p)
		}
		return nil
	})
	if err != nil || !p.Done || calls != 1 {
		t.Errorf("err = %v, progress %+v, %d calls", err, p, calls)
	}
}
