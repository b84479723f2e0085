package slacktest

import (
	"strings"
	"testing"

	"github.com/slack-go/slack"
)

// link_shared comes only for the app's unfurl domains; chat.unfurl refuses
// what Slack refuses.
func TestUnfurl(t *testing.T) {
	srv := NewServer(WithUnfurlDomains("arxiv.org"))
	defer srv.Close()
	srv.SetChannel("C1", Channel{Member: true})
	ts, envs := srv.PasteLinks("C1", "U1", "see <https://export.arxiv.org/abs/2309.17453|this> and https://example.org/x", "")
	if len(envs) != 2 {
		t.Fatalf("%d envelopes, want message and link_shared", len(envs))
	}
	if _, envs := srv.PasteLinks("C1", "U1", "only https://example.org/x", ""); len(envs) != 1 {
		t.Errorf("a link off the unfurl domains raised link_shared")
	}
	card := slack.Attachment{Blocks: slack.Blocks{BlockSet: []slack.Block{header("StealthInk")}}}
	bad := slack.Attachment{Blocks: slack.Blocks{BlockSet: []slack.Block{header(strings.Repeat("h", 151))}}}
	api := newAPI(srv)
	for _, c := range []struct {
		name, ts string
		unfurls  map[string]slack.Attachment
		want     string
	}{
		{"ok", ts, map[string]slack.Attachment{"https://export.arxiv.org/abs/2309.17453": card}, ""},
		{"link not in the message", ts, map[string]slack.Attachment{"https://arxiv.org/abs/1": card}, "cannot_unfurl_url"},
		{"blocks over the limits", ts, map[string]slack.Attachment{"https://export.arxiv.org/abs/2309.17453": bad}, "invalid_blocks"},
		{"no such message", "1.2", map[string]slack.Attachment{"https://export.arxiv.org/abs/2309.17453": card}, "cannot_unfurl_message"},
	} {
		_, _, _, err := api.UnfurlMessage("C1", c.ts, c.unfurls)
		if got := slackErr(err); got != c.want {
			t.Errorf("%s: error %q, want %q", c.name, got, c.want)
		}
	}
	for _, m := range srv.Messages("C1") {
		if m.TS == ts && len(m.Unfurls) != 1 {
			t.Errorf("message has %d unfurls, want the one accepted", len(m.Unfurls))
		}
	}
}
