package slacktest

import (
	"context"
	"strings"
	"testing"

	"github.com/slack-go/slack"
)

// TestFileUploadKeepsTheContent: the two-step upload slack-go makes shares
// the file in the channel with its bytes kept; the steps out of order fail
// as Slack's do.
func TestFileUploadKeepsTheContent(t *testing.T) {
	srv := NewServer()
	defer srv.Close()
	srv.SetChannel("C1", Channel{Member: true})
	srv.SetChannel("C2", Channel{Private: true})
	api := newAPI(srv)
	ctx := context.Background()
	content := "@misc{a,\n  title = {A}\n}\n"

	up, err := api.GetUploadURLExternalContext(ctx, slack.GetUploadURLExternalParameters{FileName: "list.bib", FileSize: len(content)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := api.CompleteUploadExternalContext(ctx, slack.CompleteUploadExternalParameters{
		Files: []slack.FileSummary{{ID: up.FileID, Title: "list"}}, Channel: "C1"}); err == nil || !strings.Contains(err.Error(), "file_not_found") {
		t.Fatalf("completing before the upload: %v, want file_not_found", err)
	}
	if err := api.UploadToURL(ctx, slack.UploadToURLParameters{UploadURL: up.UploadURL, Filename: "list.bib", Content: content}); err != nil {
		t.Fatal(err)
	}
	if _, err := api.CompleteUploadExternalContext(ctx, slack.CompleteUploadExternalParameters{
		Files: []slack.FileSummary{{ID: up.FileID, Title: "list"}}, Channel: "C2"}); err == nil || !strings.Contains(err.Error(), "not_in_channel") {
		t.Fatalf("sharing where the bot is not: %v, want not_in_channel", err)
	}
	if _, err := api.CompleteUploadExternalContext(ctx, slack.CompleteUploadExternalParameters{
		Files: []slack.FileSummary{{ID: up.FileID, Title: "list"}}, Channel: "C1", InitialComment: "your list"}); err != nil {
		t.Fatal(err)
	}
	files := srv.Files("C1")
	if len(files) != 1 || string(files[0].Content) != content || files[0].Name != "list.bib" || files[0].Comment != "your list" {
		t.Fatalf("files in C1: %+v", files)
	}
	if _, err := api.GetUploadURLExternalContext(ctx, slack.GetUploadURLExternalParameters{FileName: "x", FileSize: 0}); err == nil {
		t.Fatal("a zero-length upload was accepted")
	}
}
