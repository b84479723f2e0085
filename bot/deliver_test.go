package bot

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// newTestBot is a Bot that is never run, for testing delivery directly.
func newTestBot(t *testing.T) *Bot {
	t.Helper()
	b, err := New(Config{BotToken: testBotToken, AppToken: testAppToken, APIURL: "http://127.0.0.1:9/api/", HTTPTimeout: 5 * time.Second},
		testIndex(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// responseServer answers response_url posts with the statuses given, in
// order (then 200), and records the bodies.
type responseServer struct {
	mu       sync.Mutex
	statuses []int
	bodies   []map[string]any
	at       []time.Time
}

func (s *responseServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	var body map[string]any
	_ = json.Unmarshal(raw, &body)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.bodies = append(s.bodies, body)
	s.at = append(s.at, time.Now())
	status := http.StatusOK
	if len(s.statuses) > 0 {
		status, s.statuses = s.statuses[0], s.statuses[1:]
	}
	switch status {
	case http.StatusTooManyRequests:
		w.Header().Set("Retry-After", "1")
		w.WriteHeader(status)
	case http.StatusNotFound:
		w.WriteHeader(status)
		io.WriteString(w, `{"ok":false,"error":"expired_url"}`)
	default:
		io.WriteString(w, "ok")
	}
}

func TestRespondWaitsOutRateLimits(t *testing.T) {
	b := newTestBot(t)
	rs := &responseServer{statuses: []int{http.StatusTooManyRequests}}
	srv := httptest.NewServer(rs)
	defer srv.Close()
	rep := textReply("hello &amp; bye", VisibilityDefault)
	if err := b.respond(t.Context(), srv.URL+"/r/1", rep); err != nil {
		t.Fatalf("respond: %v", err)
	}
	if len(rs.bodies) != 2 {
		t.Fatalf("%d posts, want 2 (429, then the retry)", len(rs.bodies))
	}
	if d := rs.at[1].Sub(rs.at[0]); d < time.Second {
		t.Errorf("retried after %v, before Retry-After", d)
	}
	if got := counterValue(b.metrics.rateLimitWaits); got != 1 {
		t.Errorf("rate-limit waits = %v, want 1", got)
	}
	body := rs.bodies[1]
	for k, want := range map[string]any{"response_type": "ephemeral", "replace_original": false, "delete_original": false,
		"unfurl_links": false, "unfurl_media": false, "text": "hello &amp; bye"} {
		if body[k] != want {
			t.Errorf("body[%q] = %v, want %v", k, body[k], want)
		}
	}
}

func TestRespondDoesNotRetryOtherFailures(t *testing.T) {
	b := newTestBot(t)
	rs := &responseServer{statuses: []int{http.StatusNotFound}}
	srv := httptest.NewServer(rs)
	defer srv.Close()
	err := b.respond(t.Context(), srv.URL+"/r/1", textReply("x", VisibilityDefault))
	if err == nil || !strings.Contains(err.Error(), "expired_url") {
		t.Fatalf("respond = %v, want the expired_url error", err)
	}
	if len(rs.bodies) != 1 {
		t.Errorf("%d posts, want 1", len(rs.bodies))
	}
}

func TestRespondDeleteOriginalSendsNoContent(t *testing.T) {
	b := newTestBot(t)
	rs := &responseServer{}
	srv := httptest.NewServer(rs)
	defer srv.Close()
	if err := b.respond(t.Context(), srv.URL+"/r/1", &Reply{DeleteOriginal: true}); err != nil {
		t.Fatal(err)
	}
	if body := rs.bodies[0]; body["delete_original"] != true || body["text"] != nil || body["blocks"] != nil {
		t.Errorf("delete body = %v", body)
	}
}

func TestRespondRefusesNonHTTPURLs(t *testing.T) {
	b := newTestBot(t)
	for _, u := range []string{"", "file:///etc/passwd", "ftp://x/y", "not a url"} {
		if err := b.respond(t.Context(), u, textReply("x", VisibilityDefault)); err == nil {
			t.Errorf("respond(%q) succeeded", u)
		}
	}
}

func TestSafeReplyDegradesToText(t *testing.T) {
	b := newTestBot(t)
	big := renderPaper(paperView{Paper: fixedPaper()})
	big.Blocks = append(big.Blocks, big.Blocks...) // duplicate block_ids
	got := b.safeReply(big)
	if got.Blocks != nil || got.Text == "" {
		t.Fatalf("invalid reply not degraded to text: %d blocks, text %q", len(got.Blocks), got.Text)
	}
	if counterValue(b.metrics.errors.WithLabelValues("render")) != 1 {
		t.Error("render error not counted")
	}
}
