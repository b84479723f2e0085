package slacktest

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// File is a file the bot uploaded with files.getUploadURLExternal, a POST to
// the upload URL and files.completeUploadExternal, with its content kept
// for checking.
type File struct {
	ID       string
	Name     string // filename given to files.getUploadURLExternal
	Title    string // title given to files.completeUploadExternal ("" for Name)
	Length   int    // length announced to files.getUploadURLExternal
	Content  []byte // bytes posted to the upload URL
	Channel  string // where it was shared ("" when completed without a channel)
	ThreadTS string
	Comment  string // initial_comment
	Shared   bool   // files.completeUploadExternal finished it
	At       time.Time
}

// getUploadURLExternal reserves a file ID and an upload URL. Like Slack it
// requires filename and a positive length.
func (s *Server) getUploadURLExternal(r *apiRequest) (map[string]any, *apiError) {
	name := r.params.Get("filename")
	n, err := strconv.Atoi(r.params.Get("length"))
	if name == "" || err != nil || n <= 0 {
		return nil, invalidArgs("[ERROR] filename and a positive length are required")
	}
	f := &File{ID: s.idLocked("F"), Name: name, Length: n, At: s.now()}
	s.files = append(s.files, f)
	return map[string]any{"upload_url": s.http.URL + "/upload/" + f.ID, "file_id": f.ID}, nil
}

// serveUpload receives a file's bytes, as a multipart form's "file" field
// (what slack-go sends) or as the raw body.
func (s *Server) serveUpload(w http.ResponseWriter, hr *http.Request) {
	id := strings.TrimPrefix(hr.URL.Path, "/upload/")
	if hr.Method != http.MethodPost {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	content, err := uploadedBytes(hr)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.fileLocked(id)
	if f == nil || f.Shared {
		http.Error(w, "unknown upload", http.StatusNotFound)
		return
	}
	f.Content = content
	s.notifyLocked()
	fmt.Fprintf(w, "OK - %d", len(content))
}

func uploadedBytes(hr *http.Request) ([]byte, error) {
	ctype, params, _ := mime.ParseMediaType(hr.Header.Get("Content-Type"))
	if ctype != "multipart/form-data" {
		return io.ReadAll(io.LimitReader(hr.Body, 64<<20))
	}
	mr := multipart.NewReader(hr.Body, params["boundary"])
	for {
		p, err := mr.NextPart()
		if err != nil {
			return nil, fmt.Errorf("no file field in the upload: %v", err)
		}
		if p.FormName() == "file" {
			return io.ReadAll(io.LimitReader(p, 64<<20))
		}
	}
}

func (s *Server) fileLocked(id string) *File {
	for _, f := range s.files {
		if f.ID == id {
			return f
		}
	}
	return nil
}

// completeUploadExternal shares uploaded files in channel_id (which the bot
// must be able to post in). A file never uploaded, or already completed, is
// file_not_found, as in Slack; its content must be the announced length.
func (s *Server) completeUploadExternal(r *apiRequest) (map[string]any, *apiError) {
	var list []struct {
		ID    string `json:"id"`
		Title string `json:"title"`
	}
	if json.Unmarshal([]byte(r.params.Get("files")), &list) != nil || len(list) == 0 {
		return nil, invalidArgs("[ERROR] files must be a JSON array of {id, title}")
	}
	channel := r.params.Get("channel_id")
	if channel == "" {
		channel = r.params.Get("channels")
	}
	var ch *Channel
	if channel != "" {
		var e *apiError
		if ch, e = s.postableLocked(channel); e != nil {
			return nil, e
		}
	}
	var files []*File
	for _, item := range list {
		f := s.fileLocked(item.ID)
		if f == nil || f.Shared || f.Content == nil {
			return nil, fail("file_not_found")
		}
		if len(f.Content) != f.Length {
			return nil, invalidArgs(fmt.Sprintf("[ERROR] file %s: %d bytes uploaded, %d announced", f.ID, len(f.Content), f.Length))
		}
		files = append(files, f)
	}
	var out []map[string]any
	for i, f := range files {
		f.Title, f.Shared, f.Comment, f.ThreadTS = list[i].Title, true, r.params.Get("initial_comment"), r.params.Get("thread_ts")
		if ch != nil {
			f.Channel = ch.ID
		}
		out = append(out, map[string]any{"id": f.ID, "title": f.Title})
	}
	return map[string]any{"files": out}, nil
}

// Files returns copies of the files shared in channel (an IM ID, or a user
// ID for the bot's IM with them), oldest first; "" for every shared file.
func (s *Server) Files(channel string) []File {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, isUser := s.users[channel]; isUser {
		channel = s.dms[channel]
	}
	var out []File
	for _, f := range s.files {
		if f.Shared && (channel == "" || f.Channel == channel) {
			c := *f
			c.Content = append([]byte(nil), f.Content...)
			out = append(out, c)
		}
	}
	return out
}
