package slacktest

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"
)

func TestConnectHelloAndAckRecorded(t *testing.T) {
	h := start(t)
	h.waitEvent(t, socketmode.EventTypeHello)
	env := h.srv.SlashCommand(CommandOpts{Text: "transformers"})
	ack, err := h.srv.WaitAck(env, wait)
	if err != nil {
		t.Fatal(err)
	}
	if ack.Type != TypeSlashCommands || ack.Latency <= 0 || ack.Payload != nil || ack.Err != "" {
		t.Fatalf("ack = %+v, want slash_commands ack with latency and no payload", ack)
	}
	if got := h.srv.Unacked(); len(got) != 0 {
		t.Fatalf("unacked after ack: %v", got)
	}
}

func TestSocketRejectsWrongAppToken(t *testing.T) {
	h := startUnconnected(t, func(s *Server, _ ...slack.Option) *slack.Client {
		return slack.New(s.BotToken(), slack.OptionAPIURL(s.APIURL()), slack.OptionAppLevelToken("xapp-test-wrong"))
	}, nil)
	select {
	case err := <-h.runErr:
		if slackErr(err) != "invalid_auth" {
			t.Fatalf("RunContext error = %v, want invalid_auth", err)
		}
		h.runErr <- nil // let cleanup see a clean exit
	case <-time.After(wait):
		t.Fatal("RunContext kept running with a wrong app token")
	}
}

func TestSlashCommandRoundTrip(t *testing.T) {
	h := start(t)
	got := make(chan slack.SlashCommand, 1)
	h.setHandler(func(evt socketmode.Event) {
		if evt.Type != socketmode.EventTypeSlashCommand {
			return
		}
		cmd := evt.Data.(slack.SlashCommand)
		h.ack(evt.Request, map[string]any{"response_type": "ephemeral", "text": "searching for " + cmd.Text})
		_, _, err := h.api.PostMessage("", slack.MsgOptionResponseURL(cmd.ResponseURL, "in_channel"),
			slack.MsgOptionText("3 papers on "+cmd.Text, false))
		if err != nil {
			t.Errorf("response_url post: %v", err)
		}
		got <- cmd
	})
	h.srv.SetUser(User{ID: "U1", Name: "alice"})
	env := h.srv.SlashCommand(CommandOpts{UserID: "U1", ChannelID: "C1", Text: "diffusion"})
	var cmd slack.SlashCommand
	select {
	case cmd = <-got:
	case <-time.After(wait):
		t.Fatal("no slash command reached the client")
	}
	if cmd.Command != "/paper" || cmd.UserID != "U1" || cmd.UserName != "alice" || cmd.ChannelID != "C1" ||
		cmd.TeamID != h.srv.TeamID() || cmd.TriggerID == "" || !strings.HasPrefix(cmd.ResponseURL, h.srv.URL()) {
		t.Fatalf("parsed slash command = %+v", cmd)
	}
	if _, err := h.srv.WaitAck(env, wait); err != nil {
		t.Fatal(err)
	}
	reply, err := h.srv.WaitForMessage(wait, func(m Message) bool { return !m.Ephemeral && m.Channel == "C1" })
	if err != nil {
		t.Fatal(err)
	}
	if reply.Text != "3 papers on diffusion" || reply.Source != "response_url" || reply.User != h.srv.BotUserID() {
		t.Fatalf("in_channel reply = %+v", reply)
	}
	eph := h.srv.Ephemerals("C1", "U1")
	if len(eph) != 1 || eph[0].Text != "searching for diffusion" || eph[0].Source != "ack" {
		t.Fatalf("ephemerals = %+v, want the ack text", eph)
	}
}

func TestAckPayloadWithInvalidBlocksIsFlagged(t *testing.T) {
	h := start(t)
	h.setHandler(func(evt socketmode.Event) {
		if evt.Request == nil || evt.Request.EnvelopeID == "" {
			return
		}
		long := strings.Repeat("x", 151)
		h.ack(evt.Request, map[string]any{"text": "t", "blocks": []slack.Block{
			slack.NewHeaderBlock(slack.NewTextBlockObject(slack.PlainTextType, long, false, false)),
		}})
	})
	ack, err := h.srv.WaitAck(h.srv.SlashCommand(CommandOpts{}), wait)
	if err != nil {
		t.Fatal(err)
	}
	if ack.Err != "invalid_blocks" || len(h.srv.Ephemerals("", "")) != 0 {
		t.Fatalf("ack.Err = %q, ephemerals %d; want invalid_blocks and nothing shown", ack.Err, len(h.srv.Ephemerals("", "")))
	}
}

func TestReconnectDeliversQueuedEnvelopes(t *testing.T) {
	tests := []struct {
		name  string
		fault func(*Server) error
	}{
		{"disconnect refresh_requested", func(s *Server) error { return s.Disconnect("refresh_requested") }},
		{"disconnect warning", func(s *Server) error { return s.Disconnect("warning") }},
		{"dropped socket", (*Server).DropSocket},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := start(t)
			h.srv.PauseConnections()
			if err := tt.fault(h.srv); err != nil {
				t.Fatal(err)
			}
			if err := h.srv.WaitFor(wait, func() bool { return !h.srv.Connected() }); err != nil {
				t.Fatalf("socket still usable: %v", err)
			}
			var envs []string
			for i := 0; i < 3; i++ {
				envs = append(envs, h.srv.SlashCommand(CommandOpts{Text: "q"}))
			}
			if q := h.srv.Queued(); q != 3 {
				t.Fatalf("queued = %d, want 3 while no socket", q)
			}
			h.srv.ResumeConnections()
			if err := h.srv.WaitConnected(2, wait); err != nil {
				t.Fatal(err)
			}
			for _, env := range envs {
				if _, err := h.srv.WaitAck(env, wait); err != nil {
					t.Fatal(err)
				}
			}
			if n := h.srv.Connections(); n != 2 {
				t.Fatalf("connections = %d, want 2", n)
			}
		})
	}
}

func TestRedeliveryKeepsEventID(t *testing.T) {
	h := start(t, WithRedelivery(20*time.Millisecond, 2))
	eventIDs := make(chan string, 4)
	h.setHandler(func(evt socketmode.Event) {
		if evt.Type != socketmode.EventTypeEventsAPI {
			return
		}
		cb := evt.Data.(slackevents.EventsAPIEvent).Data.(*slackevents.EventsAPICallbackEvent)
		eventIDs <- cb.EventID
		if evt.Request.RetryAttempt == 1 { // ignore the first delivery, like a slow app
			h.ack(evt.Request, nil)
		}
	})
	env, eventID := h.srv.Mention("C1", "U1", "any papers on protein folding?")
	for i := 0; i < 2; i++ {
		select {
		case id := <-eventIDs:
			if id != eventID {
				t.Fatalf("delivery %d event_id = %q, want %q", i, id, eventID)
			}
		case <-time.After(wait):
			t.Fatalf("delivery %d never arrived", i)
		}
	}
	if err := h.srv.WaitFor(wait, func() bool { return len(h.srv.Acks()) == 1 }); err != nil {
		t.Fatal(err)
	}
	ack := h.srv.Acks()[0]
	if ack.EnvelopeID == env || ack.Attempt != 1 || ack.Type != TypeEventsAPI {
		t.Fatalf("ack = %+v, want the retry (attempt 1) under a new envelope ID", ack)
	}
}

func TestEventPayloadsParse(t *testing.T) {
	h := start(t)
	events := make(chan slackevents.EventsAPIInnerEvent, 8)
	h.setHandler(func(evt socketmode.Event) {
		if evt.Request != nil && evt.Request.EnvelopeID != "" {
			h.ack(evt.Request, nil)
		}
		if evt.Type == socketmode.EventTypeEventsAPI {
			events <- evt.Data.(slackevents.EventsAPIEvent).InnerEvent
		}
	})
	next := func() any {
		t.Helper()
		select {
		case e := <-events:
			return e.Data
		case <-time.After(wait):
			t.Fatal("no event")
			return nil
		}
	}
	h.srv.Mention("C1", "U1", "hello")
	if m, ok := next().(*slackevents.AppMentionEvent); !ok || m.Channel != "C1" || m.User != "U1" ||
		!strings.HasPrefix(m.Text, "<@"+h.srv.BotUserID()+">") || m.TimeStamp == "" {
		t.Fatalf("app_mention = %#v", m)
	}
	h.srv.DirectMessage("U1", "protein folding")
	if m, ok := next().(*slackevents.MessageEvent); !ok || m.ChannelType != "im" || m.Text != "protein folding" || m.BotID != "" {
		t.Fatalf("DM = %#v", m)
	}
	h.srv.BotMessage(h.srv.DMChannel("U1"), "", "my own reply")
	if m, ok := next().(*slackevents.MessageEvent); !ok || m.BotID != h.srv.BotID() || m.User != h.srv.BotUserID() {
		t.Fatalf("own bot message = %#v", m)
	}
	h.srv.BotMessage("C1", "BOTHER", "beep")
	if m, ok := next().(*slackevents.MessageEvent); !ok || m.SubType != "bot_message" || m.BotID != "BOTHER" {
		t.Fatalf("other bot message = %#v", m)
	}
	dm := h.srv.Messages(h.srv.DMChannel("U1"))[0]
	if _, _, err := h.srv.EditMessage(dm.Channel, dm.TS, "edited"); err != nil {
		t.Fatal(err)
	}
	if m, ok := next().(*slackevents.MessageEvent); !ok || m.SubType != "message_changed" || m.Message == nil || m.Message.Text != "edited" {
		t.Fatalf("edit = %#v", m)
	}
	h.srv.AppHomeOpened("U1")
	if m, ok := next().(*slackevents.AppHomeOpenedEvent); !ok || m.User != "U1" || m.Tab != "home" {
		t.Fatalf("app_home_opened = %#v", m)
	}
}

func TestSendEventRejectsInvalidJSON(t *testing.T) {
	srv := NewServer()
	defer srv.Close()
	if _, err := srv.SendEvent(json.RawMessage(`{"type":`)); err == nil {
		t.Fatal("want error for invalid JSON")
	}
	if _, err := srv.Redeliver("nope"); err == nil {
		t.Fatal("want error for unknown envelope")
	}
	if err := srv.DropSocket(); !errors.Is(err, ErrNoSocket) {
		t.Fatalf("DropSocket without socket = %v", err)
	}
}

func TestLingeringDisconnectRecoveredByRedelivery(t *testing.T) {
	h := start(t, WithRedelivery(30*time.Millisecond, 5))
	if err := h.srv.DisconnectLingering("refresh_requested"); err != nil {
		t.Fatal(err)
	}
	// Pushed right after the disconnect frame: it may reach the old socket and
	// be dropped by slack-go; Slack's retry must still get it acked.
	_, eventID := h.srv.Mention("C1", "U1", "window")
	err := h.srv.WaitFor(wait, func() bool {
		for _, a := range h.srv.Acks() {
			if a.Type == TypeEventsAPI {
				return true
			}
		}
		return false
	})
	if err != nil {
		t.Fatalf("event %s never acked across the reconnect: %v", eventID, err)
	}
	if err := h.srv.WaitConnected(2, wait); err != nil {
		t.Fatal(err)
	}
}

func TestPingsKeepSocketAlive(t *testing.T) {
	h := startUnconnected(t, newAPI, []socketmode.Option{socketmode.OptionPingInterval(100 * time.Millisecond)},
		WithPingInterval(20*time.Millisecond))
	if err := h.srv.WaitConnected(1, wait); err != nil {
		t.Fatal(err)
	}
	// slack-go reconnects when no ping arrives within its interval; with pings
	// every 20 ms the first socket must survive several intervals.
	err := h.srv.WaitFor(400*time.Millisecond, func() bool { return h.srv.Connections() > 1 })
	if err == nil {
		t.Fatalf("client reconnected (%d sockets): pings did not keep it alive", h.srv.Connections())
	}
}
