package slacktest

import (
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Call is one Web API request as the server received it.
type Call struct {
	Method string
	Params url.Values // form, query and JSON fields; the token is removed
	Status int        // HTTP status sent back
	Error  string     // Slack error name, "" when ok; "ratelimited" for 429s
	At     time.Time  // when the request arrived (real clock)
}

// apiRequest is a parsed Web API request.
type apiRequest struct {
	method string
	params url.Values                 // JSON values that are not strings keep their JSON text
	body   map[string]json.RawMessage // set when the body was JSON
	token  string
}

// apiError is a Slack error response: {"ok":false,"error":code, ...extra}.
type apiError struct {
	code  string
	extra map[string]any
}

func fail(code string) *apiError { return &apiError{code: code} }

// apiMethod handles one Web API method with s.mu held.
type apiMethod struct {
	appToken bool // authenticated with the xapp- token instead of the bot token
	handle   func(s *Server, r *apiRequest) (map[string]any, *apiError)
}

// apiMethods lists every Web API method the emulator implements.
var apiMethods = map[string]apiMethod{
	"apps.connections.open": {appToken: true, handle: (*Server).appsConnectionsOpen},
	"auth.test":             {handle: (*Server).authTest},
	"chat.postMessage":      {handle: (*Server).chatPostMessage},
	"chat.postEphemeral":    {handle: (*Server).chatPostEphemeral},
	"chat.update":           {handle: (*Server).chatUpdate},
	"chat.delete":           {handle: (*Server).chatDelete},
	"chat.getPermalink":     {handle: (*Server).chatGetPermalink},
	"chat.unfurl":           {handle: (*Server).chatUnfurl},

	"assistant.threads.setStatus":           {handle: (*Server).assistantSetStatus},
	"assistant.threads.setSuggestedPrompts": {handle: (*Server).assistantSetSuggestedPrompts},
	"conversations.info":                    {handle: (*Server).conversationsInfo},
	"conversations.list":                    {handle: (*Server).conversationsList},
	"conversations.open":                    {handle: (*Server).conversationsOpen},
	"conversations.join":                    {handle: (*Server).conversationsJoin},
	"conversations.history":                 {handle: (*Server).conversationsHistory},
	"conversations.replies":                 {handle: (*Server).conversationsReplies},
	"users.info":                            {handle: (*Server).usersInfo},
	"files.getUploadURLExternal":            {handle: (*Server).getUploadURLExternal},
	"files.completeUploadExternal":          {handle: (*Server).completeUploadExternal},
	"views.publish":                         {handle: (*Server).viewsPublish},
}

func (s *Server) serveAPI(w http.ResponseWriter, hr *http.Request) {
	arrived := time.Now()
	method := strings.TrimPrefix(hr.URL.Path, "/api/")
	if d := s.slowFor(method); d > 0 {
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-hr.Context().Done():
			t.Stop()
			return
		case <-s.done:
			t.Stop()
			return
		}
	}
	if method == "apps.connections.open" {
		s.waitConnectGate(hr)
	}
	r, perr := parseAPIRequest(hr, method)

	s.mu.Lock()
	status, resp := s.dispatchLocked(r, perr, w.Header())
	call := Call{Method: method, Params: r.params, Status: status, At: arrived}
	if ok, _ := resp["ok"].(bool); !ok {
		call.Error, _ = resp["error"].(string)
	}
	s.calls = append(s.calls, call)
	s.notifyLocked()
	s.mu.Unlock()

	writeJSON(w, status, resp)
}

// dispatchLocked runs faults, authentication and the method, in Slack's order.
func (s *Server) dispatchLocked(r *apiRequest, perr *apiError, h http.Header) (int, map[string]any) {
	if retryAfter, limited := s.takeRateLimitLocked(r.method); limited {
		h.Set("Retry-After", strconv.Itoa(int(retryAfter/time.Second)))
		return http.StatusTooManyRequests, errorBody(fail("ratelimited"))
	}
	m, known := apiMethods[r.method]
	if !known {
		e := fail("unknown_method")
		e.extra = map[string]any{"req_method": r.method}
		return http.StatusOK, errorBody(e)
	}
	if perr != nil {
		return http.StatusOK, errorBody(perr)
	}
	if e := s.authenticate(r.token, m.appToken); e != nil {
		return http.StatusOK, errorBody(e)
	}
	if !m.appToken && len(s.cfg.scopes) > 0 {
		h.Set("X-OAuth-Scopes", strings.Join(s.cfg.scopes, ","))
	}
	if code, ok := s.takeFaultLocked(r.method); ok {
		return http.StatusOK, errorBody(fail(code))
	}
	resp, e := m.handle(s, r)
	if e != nil {
		return http.StatusOK, errorBody(e)
	}
	resp["ok"] = true
	return http.StatusOK, resp
}

// authenticate checks the token like Slack: none is not_authed, an unknown one
// invalid_auth, the other known token not_allowed_token_type.
func (s *Server) authenticate(token string, wantApp bool) *apiError {
	want, other := s.cfg.botToken, s.cfg.appToken
	if wantApp {
		want, other = other, want
	}
	switch token {
	case "":
		return fail("not_authed")
	case want:
		return nil
	case other:
		return fail("not_allowed_token_type")
	default:
		return fail("invalid_auth")
	}
}

func errorBody(e *apiError) map[string]any {
	m := map[string]any{"ok": false, "error": e.code}
	for k, v := range e.extra {
		m[k] = v
	}
	return m
}

func writeJSON(w http.ResponseWriter, status int, body any) {
	b, err := json.Marshal(body)
	if err != nil {
		status = http.StatusInternalServerError
		b = []byte(`{"ok":false,"error":"internal_error"}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// parseAPIRequest reads the token and parameters from the query string and a
// form-encoded or JSON body, as slack-go sends them.
func parseAPIRequest(hr *http.Request, method string) (*apiRequest, *apiError) {
	r := &apiRequest{method: method, params: url.Values{}}
	for k, v := range hr.URL.Query() {
		r.params[k] = v
	}
	body, err := io.ReadAll(io.LimitReader(hr.Body, 8<<20))
	if err != nil {
		return r, fail("invalid_form_data")
	}
	ctype, _, _ := mime.ParseMediaType(hr.Header.Get("Content-Type"))
	switch {
	case len(bytes.TrimSpace(body)) == 0:
	case ctype == "application/json":
		if err := json.Unmarshal(body, &r.body); err != nil {
			return r, fail("invalid_json")
		}
		for k, raw := range r.body {
			var str string
			if json.Unmarshal(raw, &str) == nil {
				r.params.Set(k, str)
			} else {
				r.params.Set(k, string(raw))
			}
		}
	default:
		form, err := url.ParseQuery(string(body))
		if err != nil {
			return r, fail("invalid_form_data")
		}
		for k, v := range form {
			r.params[k] = v
		}
	}
	r.token = r.params.Get("token")
	if auth := hr.Header.Get("Authorization"); strings.HasPrefix(auth, "Bearer ") {
		r.token = strings.TrimPrefix(auth, "Bearer ")
	}
	r.params.Del("token")
	return r, nil
}

// Calls returns the Web API calls received for method ("" for all), oldest first.
func (s *Server) Calls(method string) []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Call
	for _, c := range s.calls {
		if method == "" || c.Method == method {
			out = append(out, c)
		}
	}
	return out
}
