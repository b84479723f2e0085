package slacktest

import "time"

// fault is a pending injected error for a Web API method.
type fault struct {
	code  string
	times int // remaining; negative means until cleared
	pass  int // calls to let through before failing
}

// rateLimit answers the next n calls of a method with 429.
type rateLimit struct {
	n          int
	retryAfter time.Duration
}

// FailNext makes the next call of method (after authentication) fail with
// Slack error code, e.g. FailNext("chat.postMessage", "not_in_channel").
// method "*" matches any method.
func (s *Server) FailNext(method, code string) { s.Fail(method, code, 1) }

// Fail makes the next times calls of method fail with code; times < 0 keeps
// failing until ClearFaults. A later Fail for the same method replaces it.
func (s *Server) Fail(method, code string, times int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults[method] = &fault{code: code, times: times}
}

// FailAfter lets the next pass calls of method succeed, then fails one with
// code: a failure in the middle of a sequence of posts.
func (s *Server) FailAfter(method string, pass int, code string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults[method] = &fault{code: code, times: 1, pass: pass}
}

// RateLimit answers the next n calls of method ("*" for any) with HTTP 429,
// a Retry-After header of retryAfter (whole seconds, as Slack sends) and
// {"ok":false,"error":"ratelimited"}.
func (s *Server) RateLimit(method string, n int, retryAfter time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rates[method] = &rateLimit{n: n, retryAfter: retryAfter}
}

// Slow delays every call of method ("*" for any) by d before it is handled;
// d = 0 removes the delay.
func (s *Server) Slow(method string, d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d <= 0 {
		delete(s.slow, method)
		return
	}
	s.slow[method] = d
}

// ClearFaults removes every injected failure, rate limit and delay.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = map[string]*fault{}
	s.rates = map[string]*rateLimit{}
	s.slow = map[string]time.Duration{}
}

func (s *Server) slowFor(method string) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d, ok := s.slow[method]; ok {
		return d
	}
	return s.slow["*"]
}

func (s *Server) takeRateLimitLocked(method string) (time.Duration, bool) {
	for _, key := range []string{method, "*"} {
		if rl, ok := s.rates[key]; ok && rl.n > 0 {
			rl.n--
			return rl.retryAfter, true
		}
	}
	return 0, false
}

func (s *Server) takeFaultLocked(method string) (string, bool) {
	for _, key := range []string{method, "*"} {
		f, ok := s.faults[key]
		if !ok || f.times == 0 {
			continue
		}
		if f.pass > 0 {
			f.pass--
			return "", false
		}
		if f.times > 0 {
			f.times--
		}
		return f.code, true
	}
	return "", false
}
