package feedtest

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
)

// Server is a fake arXiv (RSS under /rss/, OAI-PMH at /oai) and OpenReview
// (/notes) on loopback. Bodies are set per simulated day; safe for
// concurrent use.
type Server struct {
	*httptest.Server

	mu sync.Mutex
	// rss is the body for any /rss/ path.
	rss []byte
	// oai maps a request ("set=cs" for a first page, "token=T" for a
	// resumption) to its body.
	oai map[string][]byte
	// notes maps a content.venueid to its listing body.
	notes map[string][]byte
	// storm is how many requests still get 503 with Retry-After.
	storm      int
	retryAfter int
	// hook runs before a request is answered; returning false drops it
	// (the handler returns without a body, after the hook's own doing).
	hook     func(r *http.Request) bool
	requests []string
}

// NewServer starts a Server; close it with Close.
func NewServer() *Server {
	s := &Server{oai: map[string][]byte{}, notes: map[string][]byte{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// URLs are the base URLs to configure: RSS, OAI-PMH, OpenReview.
func (s *Server) URLs() (rss, oai, openreview string) {
	return s.URL + "/rss", s.URL + "/oai", s.URL
}

// SetRSS sets the announcement feed.
func (s *Server) SetRSS(body []byte) { s.mu.Lock(); s.rss = body; s.mu.Unlock() }

// SetOAI sets the answer to the first page of set, or (token != "") to
// the resumption with token.
func (s *Server) SetOAI(set, token string, body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if token != "" {
		s.oai["token="+token] = body
	} else {
		s.oai["set="+set] = body
	}
}

// SetNotes sets the OpenReview listing of a venue ID.
func (s *Server) SetNotes(venueID string, body []byte) {
	s.mu.Lock()
	s.notes[venueID] = body
	s.mu.Unlock()
}

// Storm makes the next n requests answer 503 with Retry-After seconds.
func (s *Server) Storm(n, retryAfter int) {
	s.mu.Lock()
	s.storm, s.retryAfter = n, retryAfter
	s.mu.Unlock()
}

// Hook sets a function run on every request before it is answered; when it
// returns false the request gets no answer but a 500.
func (s *Server) Hook(f func(r *http.Request) bool) { s.mu.Lock(); s.hook = f; s.mu.Unlock() }

// Requests lists the requests served so far as "path?query".
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests...)
}

// Count counts the requests whose "path?query" contains every part.
func (s *Server) Count(parts ...string) int {
	n := 0
	for _, r := range s.Requests() {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(r, p)
		}
		if all {
			n++
		}
	}
	return n
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	q, _ := url.QueryUnescape(r.URL.RawQuery)
	s.requests = append(s.requests, r.URL.Path+"?"+q)
	hook := s.hook
	storm := s.storm > 0
	if storm {
		s.storm--
	}
	retry := s.retryAfter
	s.mu.Unlock()
	if hook != nil && !hook(r) {
		http.Error(w, "dropped", http.StatusInternalServerError)
		return
	}
	if storm {
		w.Header().Set("Retry-After", strconv.Itoa(retry))
		http.Error(w, "arXiv is busy", http.StatusServiceUnavailable)
		return
	}
	s.mu.Lock()
	var body []byte
	ctype := "application/xml"
	switch {
	case strings.HasPrefix(r.URL.Path, "/rss/"):
		body, ctype = s.rss, "application/rss+xml"
	case r.URL.Path == "/oai":
		if tok := r.URL.Query().Get("resumptionToken"); tok != "" {
			body = s.oai["token="+tok]
		} else {
			body = s.oai["set="+r.URL.Query().Get("set")]
			if body == nil {
				body = NoRecordsMatch()
			}
		}
	case r.URL.Path == "/notes":
		body, ctype = s.notes[r.URL.Query().Get("content.venueid")], "application/json"
	}
	s.mu.Unlock()
	if body == nil {
		http.NotFound(w, r)
		return
	}
	if strings.HasPrefix(string(body), "<!DOCTYPE html") {
		ctype = "text/html; charset=utf-8" // a browser check, as a CDN sends it
	}
	w.Header().Set("Content-Type", ctype)
	w.Write(body)
}
