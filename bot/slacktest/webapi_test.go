package slacktest

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // users.info time zones on machines without zoneinfo

	"github.com/slack-go/slack"
)

func header(text string) slack.Block {
	return slack.NewHeaderBlock(slack.NewTextBlockObject(slack.PlainTextType, text, false, false))
}

func TestPostMessageErrors(t *testing.T) {
	tests := []struct {
		name  string
		setup func(*Server)
		token string
		ch    string
		opts  []slack.MsgOption
		want  string
	}{
		{"ok", nil, "", "C1", []slack.MsgOption{slack.MsgOptionText("hi", false), slack.MsgOptionBlocks(header("Hi"))}, ""},
		{"invalid blocks", nil, "", "C1", []slack.MsgOption{slack.MsgOptionText("hi", false), slack.MsgOptionBlocks(header(strings.Repeat("h", 151)))}, "invalid_blocks"},
		{"blocks without fallback text", nil, "", "C1", []slack.MsgOption{slack.MsgOptionBlocks(header("Hi"))}, "no_text"},
		{"nothing at all", nil, "", "C1", nil, "no_text"},
		{"text too long", nil, "", "C1", []slack.MsgOption{slack.MsgOptionText(strings.Repeat("x", 40001), false)}, "msg_too_long"},
		{"unknown channel", nil, "", "CNOPE", []slack.MsgOption{slack.MsgOptionText("hi", false)}, "channel_not_found"},
		{"private channel without the bot", func(s *Server) { s.SetChannel("C1", Channel{Private: true}) }, "", "C1", []slack.MsgOption{slack.MsgOptionText("hi", false)}, "not_in_channel"},
		{"archived channel", func(s *Server) { s.SetChannel("C1", Channel{Archived: true, Member: true}) }, "", "C1", []slack.MsgOption{slack.MsgOptionText("hi", false)}, "is_archived"},
		{"deleted channel", func(s *Server) { s.SetChannel("C1", Channel{Deleted: true}) }, "", "C1", []slack.MsgOption{slack.MsgOptionText("hi", false)}, "channel_not_found"},
		{"wrong token", nil, "xoxb-test-wrong", "C1", []slack.MsgOption{slack.MsgOptionText("hi", false)}, "invalid_auth"},
		{"app token", nil, DefaultAppToken, "C1", []slack.MsgOption{slack.MsgOptionText("hi", false)}, "not_allowed_token_type"},
		{"injected token_revoked", func(s *Server) { s.FailNext("chat.postMessage", "token_revoked") }, "", "C1", []slack.MsgOption{slack.MsgOptionText("hi", false)}, "token_revoked"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := NewServer()
			defer srv.Close()
			srv.SetChannel("C1", Channel{Member: true})
			if tt.setup != nil {
				tt.setup(srv)
			}
			api := newAPI(srv)
			if tt.token != "" {
				api = slack.New(tt.token, slack.OptionAPIURL(srv.APIURL()))
			}
			_, ts, err := api.PostMessage(tt.ch, tt.opts...)
			if got := slackErr(err); got != tt.want {
				t.Fatalf("error = %q, want %q", got, tt.want)
			}
			msgs := srv.Messages("C1")
			if tt.want != "" && len(msgs) != 0 {
				t.Fatalf("failed post was recorded: %+v", msgs)
			}
			if tt.want == "" && (len(msgs) != 1 || msgs[0].TS != ts) {
				t.Fatalf("messages = %+v, want the post %s", msgs, ts)
			}
		})
	}
}

func TestInvalidBlocksErrorShape(t *testing.T) {
	srv := NewServer()
	defer srv.Close()
	srv.SetChannel("C1", Channel{Member: true})
	_, _, err := newAPI(srv).PostMessage("C1", slack.MsgOptionText("t", false), slack.MsgOptionBlocks(header(strings.Repeat("h", 151))))
	var se slack.SlackErrorResponse
	if !errors.As(err, &se) || se.Err != "invalid_blocks" || len(se.ResponseMetadata.Messages) != 1 ||
		!strings.Contains(se.ResponseMetadata.Messages[0], "[json-pointer:/blocks/0/text/text]") {
		t.Fatalf("error = %#v", err)
	}
	if calls := srv.Calls("chat.postMessage"); len(calls) != 1 || calls[0].Error != "invalid_blocks" {
		t.Fatalf("calls = %+v", calls)
	}
}

func TestUnknownMethod(t *testing.T) {
	srv := NewServer()
	defer srv.Close()
	_, err := newAPI(srv).GetEmoji()
	if slackErr(err) != "unknown_method" {
		t.Fatalf("emoji.list: %v, want unknown_method", err)
	}
}

func TestRateLimitRetried(t *testing.T) {
	srv := NewServer()
	defer srv.Close()
	srv.SetChannel("C1", Channel{Member: true})
	srv.RateLimit("chat.postMessage", 1, time.Second)

	_, _, err := newAPI(srv).PostMessage("C1", slack.MsgOptionText("hi", false))
	var rl *slack.RateLimitedError
	if !errors.As(err, &rl) || rl.RetryAfter != time.Second {
		t.Fatalf("without retry: %v, want RateLimitedError of 1s", err)
	}
	srv.RateLimit("chat.postMessage", 1, time.Second)
	if _, _, err := newAPI(srv, slack.OptionRetry(2)).PostMessage("C1", slack.MsgOptionText("hi", false)); err != nil {
		t.Fatalf("with OptionRetry: %v", err)
	}
	calls := srv.Calls("chat.postMessage")
	if len(calls) != 3 || calls[1].Status != 429 || calls[2].Status != 200 {
		t.Fatalf("calls = %+v, want 429, 429, 200", calls)
	}
	if n := len(srv.Messages("C1")); n != 1 {
		t.Fatalf("%d messages posted, want exactly 1", n)
	}
}

func TestSlowAndFail(t *testing.T) {
	srv := NewServer()
	defer srv.Close()
	srv.Slow("auth.test", 150*time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := newAPI(srv).AuthTestContext(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("slow auth.test: %v, want deadline exceeded", err)
	}
	srv.ClearFaults()
	srv.Fail("auth.test", "account_inactive", 2)
	for i := 0; i < 2; i++ {
		if _, err := newAPI(srv).AuthTest(); slackErr(err) != "account_inactive" {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	resp, err := newAPI(srv).AuthTest()
	if err != nil || resp.UserID != srv.BotUserID() || resp.TeamID != srv.TeamID() || resp.BotID != srv.BotID() {
		t.Fatalf("auth.test = %+v, %v", resp, err)
	}
}

func TestChatLifecycle(t *testing.T) {
	srv := NewServer()
	defer srv.Close()
	srv.SetChannel("C1", Channel{Member: true})
	api := newAPI(srv)
	meta := slack.SlackMetadata{EventType: "paperbot_digest", EventPayload: map[string]any{"sub": "S1", "day": "2025-03-30"}}
	_, parent, err := api.PostMessage("C1", slack.MsgOptionText("digest", false), slack.MsgOptionMetadata(meta), slack.MsgOptionDisableLinkUnfurl())
	if err != nil {
		t.Fatal(err)
	}
	_, reply, err := api.PostMessage("C1", slack.MsgOptionText("more", false), slack.MsgOptionTS(parent))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := api.UpdateMessage("C1", parent, slack.MsgOptionText("digest (edited)", false)); err != nil {
		t.Fatal(err)
	}
	link, err := api.GetPermalink(&slack.PermalinkParameters{Channel: "C1", Ts: reply})
	if err != nil || !strings.Contains(link, "thread_ts="+parent) {
		t.Fatalf("permalink = %q, %v", link, err)
	}

	hist, err := api.GetConversationHistory(&slack.GetConversationHistoryParameters{ChannelID: "C1", IncludeAllMetadata: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(hist.Messages) != 1 || hist.Messages[0].Text != "digest (edited)" ||
		hist.Messages[0].Metadata.EventType != "paperbot_digest" || hist.Messages[0].Metadata.EventPayload["day"] != "2025-03-30" {
		t.Fatalf("history = %+v, want the parent only, with metadata", hist.Messages)
	}
	if th := srv.Thread("C1", parent); len(th) != 1 || th[0].TS != reply {
		t.Fatalf("thread = %+v", th)
	}
	if m := srv.Messages("C1")[0]; m.Params.Get("unfurl_links") != "false" || m.Edits != 1 {
		t.Fatalf("recorded parent = %+v", m)
	}
	if _, _, err := api.DeleteMessage("C1", reply); err != nil {
		t.Fatal(err)
	}
	if _, _, err := api.DeleteMessage("C1", reply); slackErr(err) != "message_not_found" {
		t.Fatalf("second delete: %v", err)
	}
	if n := len(srv.Messages("C1")); n != 1 {
		t.Fatalf("%d live messages after delete, want 1", n)
	}
}

func TestHistoryPaging(t *testing.T) {
	srv := NewServer()
	defer srv.Close()
	srv.SetChannel("C1", Channel{Member: true})
	api := newAPI(srv)
	for i := 0; i < 5; i++ {
		if _, _, err := api.PostMessage("C1", slack.MsgOptionText(strings.Repeat("m", i+1), false)); err != nil {
			t.Fatal(err)
		}
	}
	var texts []string
	cursor := ""
	for {
		h, err := api.GetConversationHistory(&slack.GetConversationHistoryParameters{ChannelID: "C1", Limit: 2, Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range h.Messages {
			texts = append(texts, m.Text)
		}
		if !h.HasMore {
			break
		}
		cursor = h.ResponseMetaData.NextCursor
	}
	if strings.Join(texts, ",") != "mmmmm,mmmm,mmm,mm,m" {
		t.Fatalf("history pages = %v, want newest first", texts)
	}
}

func TestConversationsAndUsers(t *testing.T) {
	jan := time.Date(2025, 1, 15, 12, 0, 0, 0, time.UTC)
	srv := NewServer(WithClock(func() time.Time { return jan }))
	defer srv.Close()
	srv.SetUser(User{ID: "U1", Name: "ana", TZ: "Europe/Berlin"})
	srv.SetChannel("G1", Channel{Private: true})
	srv.SetChannel("C2", Channel{})
	api := newAPI(srv)

	u, err := api.GetUserInfo("U1")
	if err != nil || u.TZ != "Europe/Berlin" || u.TZOffset != 3600 {
		t.Fatalf("users.info = %+v, %v; want Europe/Berlin at +3600 in January", u, err)
	}
	if _, err := api.GetUserInfo("UNOPE"); slackErr(err) != "user_not_found" {
		t.Fatalf("unknown user: %v", err)
	}
	ch, err := api.GetConversationInfo(&slack.GetConversationInfoInput{ChannelID: "G1"})
	if err != nil || !ch.IsPrivate || ch.IsMember || ch.IsArchived {
		t.Fatalf("conversations.info = %+v, %v", ch, err)
	}
	if _, _, _, err := api.JoinConversation("G1"); slackErr(err) != "method_not_supported_for_channel_type" {
		t.Fatalf("join private: %v", err)
	}
	if _, _, _, err := api.JoinConversation("C2"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := api.PostMessage("C2", slack.MsgOptionText("after join", false)); err != nil {
		t.Fatalf("post after join: %v", err)
	}
	dm, _, _, err := api.OpenConversation(&slack.OpenConversationParameters{Users: []string{"U1"}})
	if err != nil || dm.ID != srv.DMChannel("U1") {
		t.Fatalf("conversations.open = %+v, %v", dm, err)
	}
	if _, _, err := api.PostMessage("U1", slack.MsgOptionText("hello by user ID", false)); err != nil {
		t.Fatal(err)
	}
	if msgs := srv.Messages(dm.ID); len(msgs) != 1 {
		t.Fatalf("DM messages = %+v", msgs)
	}
}

func TestViewsPublish(t *testing.T) {
	srv := NewServer()
	defer srv.Close()
	srv.SetUser(User{ID: "U1"})
	api := newAPI(srv)
	blocks := make([]slack.Block, 101)
	for i := range blocks {
		blocks[i] = slack.NewDividerBlock()
	}
	_, err := api.PublishView("U1", slack.HomeTabViewRequest{Type: slack.VTHomeTab, Blocks: slack.Blocks{BlockSet: blocks}}, "")
	if slackErr(err) != "invalid_arguments" {
		t.Fatalf("101 blocks: %v, want invalid_arguments", err)
	}
	v, err := api.PublishView("U1", slack.HomeTabViewRequest{Type: slack.VTHomeTab, Blocks: slack.Blocks{BlockSet: blocks[:100]}}, "")
	if err != nil || v.View.ID == "" {
		t.Fatalf("100 blocks: %+v, %v", v, err)
	}
	if hv := srv.HomeViews("U1"); len(hv) != 1 || hv[0].ID != v.View.ID {
		t.Fatalf("home views = %+v", hv)
	}
	if _, err := api.PublishView("U1", slack.HomeTabViewRequest{Type: slack.VTHomeTab, Blocks: slack.Blocks{BlockSet: blocks[:1]}}, "stale"); slackErr(err) != "hash_conflict" {
		t.Fatalf("stale hash: %v", err)
	}
}
