package bot

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/bottest"
	"github.com/paperbot/paperbot/bot/slacktest"
	"github.com/paperbot/paperbot/fault"
)

func TestE2ERedeliveredEventRepliesOnce(t *testing.T) {
	tests := []struct {
		name      string
		redeliver func(h *harness, env string) string
	}{
		{"new envelope, same event_id", func(h *harness, env string) string {
			id, err := h.srv.Redeliver(env)
			if err != nil {
				h.t.Fatal(err)
			}
			return id
		}},
		{"same envelope", func(h *harness, env string) string {
			if err := h.srv.RedeliverSameEnvelope(env); err != nil {
				h.t.Fatal(err)
			}
			return env
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := startBot(t, harnessOpts{})
			env, _ := h.srv.Mention("C1", "U1", "protein conformations")
			h.WaitAck(env)
			ts := h.srv.Messages("C1")[0].TS
			h.WaitThread("C1", ts, 1)
			h.WaitAck(tt.redeliver(h, env))
			h.Sentinel("U9")
			if n := len(h.srv.Thread("C1", ts)); n != 1 {
				t.Errorf("%d replies after redelivery, want 1", n)
			}
			// The drop is counted by a worker, maybe after the sentinel's reply.
			bottest.WaitUntil(t, "one duplicate counted", func() bool { return metricValue(t, h.bot, "paperbot_duplicates_total", "") == 1 })
		})
	}
}

func TestE2ERedeliveredSlashCommandRepliesOnce(t *testing.T) {
	h := startBot(t, harnessOpts{})
	env := h.Slash("U1", "C1", "protein")
	h.WaitEphemeral("C1", "U1", 1)
	if err := h.srv.RedeliverSameEnvelope(env); err != nil {
		t.Fatal(err)
	}
	h.WaitAck(env)
	h.Sentinel("U9")
	if n := h.EphemeralCount("C1", "U1"); n != 1 {
		t.Errorf("%d replies to one slash command, want 1", n)
	}
}

// TestE2EFailedReplyIsRetriedOnRedelivery: the first attempt fails before
// anything is posted, so Slack's retry of the event must still be answered.
func TestE2EFailedReplyIsRetriedOnRedelivery(t *testing.T) {
	h := startBot(t, harnessOpts{srv: []slacktest.Option{slacktest.WithRedelivery(300*time.Millisecond, 3)}})
	h.srv.FailNext("chat.postMessage", "internal_error")
	env, _ := h.srv.Mention("C1", "U1", "protein conformations")
	h.WaitAck(env)
	if err := h.srv.WaitFor(wait, func() bool { return len(h.srv.Calls("chat.postMessage")) >= 1 }); err != nil {
		t.Fatal(err)
	}
	redelivered, err := h.srv.Redeliver(env)
	if err != nil {
		t.Fatal(err)
	}
	h.WaitAck(redelivered)
	ts := h.srv.Messages("C1")[0].TS
	h.WaitThread("C1", ts, 1)
	h.Sentinel("U9")
	if n := len(h.srv.Thread("C1", ts)); n != 1 {
		t.Errorf("%d replies, want exactly 1", n)
	}
}

func TestE2EReconnect(t *testing.T) {
	tests := []struct {
		name  string
		fault func(h *harness) error
	}{
		{"disconnect frame", func(h *harness) error { return h.srv.Disconnect("refresh_requested") }},
		{"dropped socket", func(h *harness) error { return h.srv.DropSocket() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := startBot(t, harnessOpts{})
			// Hold the reconnection so the command is certain to wait in the queue.
			h.srv.PauseConnections()
			if err := tt.fault(h); err != nil {
				t.Fatal(err)
			}
			bottest.WaitUntil(t, "bot to notice the lost socket", func() bool { return !h.bot.Ready() })
			env := h.srv.SlashCommand(slacktest.CommandOpts{UserID: "U1", ChannelID: "C1", Text: "protein"})
			h.srv.ResumeConnections()
			if err := h.srv.WaitConnected(2, wait); err != nil {
				t.Fatal(err)
			}
			h.WaitAck(env)
			h.WaitEphemeral("C1", "U1", 1)
			bottest.WaitUntil(t, "ready again", h.bot.Ready)
			if r := metricValue(t, h.bot, "paperbot_reconnects_total", ""); r < 1 {
				t.Errorf("reconnects metric = %v, want ≥ 1", r)
			}
		})
	}
}

// TestE2ELingeringSocketLosesNothing: Slack may keep sending on a socket it
// asked us to leave; slack-go drops those, Slack redelivers them.
func TestE2ELingeringSocketLosesNothing(t *testing.T) {
	h := startBot(t, harnessOpts{srv: []slacktest.Option{slacktest.WithRedelivery(500*time.Millisecond, 5)}})
	if err := h.srv.DisconnectLingering("warning"); err != nil {
		t.Fatal(err)
	}
	var threads []string
	for i := range 5 {
		env, _ := h.srv.Mention("C1", "U1", "protein")
		_ = env
		threads = append(threads, h.srv.Messages("C1")[i].TS)
	}
	for _, ts := range threads {
		h.WaitThread("C1", ts, 1)
	}
	h.Sentinel("U9")
	for _, ts := range threads {
		if n := len(h.srv.Thread("C1", ts)); n != 1 {
			t.Errorf("thread %s has %d replies, want 1", ts, n)
		}
	}
}

func TestE2ERateLimitedReplyArrivesOnce(t *testing.T) {
	h := startBot(t, harnessOpts{})
	h.srv.RateLimit("chat.postMessage", 1, time.Second)
	env, _ := h.srv.Mention("C1", "U1", "protein conformations")
	h.WaitAck(env)
	ts := h.srv.Messages("C1")[0].TS
	h.WaitThread("C1", ts, 1)
	calls := h.srv.Calls("chat.postMessage")
	if len(calls) != 2 || calls[0].Status != http.StatusTooManyRequests || calls[1].Status != http.StatusOK {
		t.Errorf("calls = %+v, want one 429 then one success", calls)
	}
	if d := calls[1].At.Sub(calls[0].At); d < time.Second {
		t.Errorf("retried after %v, before Retry-After (1s)", d)
	}
	if n := len(h.srv.Thread("C1", ts)); n != 1 {
		t.Errorf("%d replies, want 1", n)
	}
	if w := metricValue(t, h.bot, "paperbot_rate_limit_waits_total", ""); w != 1 {
		t.Errorf("rate-limit waits = %v, want 1", w)
	}
}

func TestE2EShutdownFinishesWorkInFlight(t *testing.T) {
	h := startBot(t, harnessOpts{})
	h.srv.Slow("chat.postMessage", 300*time.Millisecond)
	env, _ := h.srv.Mention("C1", "U1", "protein conformations")
	h.WaitAck(env)
	start := time.Now()
	if err := h.stop(); err != nil {
		t.Fatalf("Run returned %v on shutdown, want nil", err)
	}
	if n := len(h.srv.Thread("C1", h.srv.Messages("C1")[0].TS)); n != 1 {
		t.Errorf("reply in flight at shutdown: %d posted, want 1", n)
	}
	if h.bot.Ready() {
		t.Error("still ready after Run returned")
	}
	t.Logf("shutdown with one slow reply took %v", time.Since(start))
}

func TestE2EShutdownGraceIsBounded(t *testing.T) {
	h := startBot(t, harnessOpts{config: func(c *Config) { c.ShutdownGrace = 200 * time.Millisecond }})
	// The emulator finishes a slow call even after the client gave up, and
	// its Close waits for it: keep the delay short, but far over the grace.
	h.srv.Slow("chat.postMessage", 3*time.Second)
	env, _ := h.srv.Mention("C1", "U1", "protein")
	h.WaitAck(env)
	start := time.Now()
	if err := h.stop(); err != nil {
		t.Fatalf("Run = %v, want nil", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("shutdown took %v with a 200ms grace", d)
	}
}

func TestE2EHostileQueryIsEscaped(t *testing.T) {
	h := startBot(t, harnessOpts{})
	// As Slack sends what a user typed: literal markup arrives entity-escaped.
	typed := "&lt;!channel&gt; &lt;@U123&gt; &lt;http://evil.example|click&gt; *bold* & protein"
	h.Slash("U1", "C1", typed)
	m := h.WaitEphemeral("C1", "U1", 1)
	checkSafe(t, &Reply{Text: m.Text, Blocks: bottest.Blocks(t, m)})
	if text := bottest.BlockTexts(t, m); !strings.Contains(text, "&lt;!channel&gt;") {
		t.Errorf("the query should be echoed escaped:\n%s", text)
	}
	// Real mention tokens in a question are not search terms and never echoed.
	env, _ := h.srv.Mention("C1", "U1", "<!channel> <@U123> protein conformations")
	h.WaitAck(env)
	r := h.WaitThread("C1", h.srv.Messages("C1")[0].TS, 1)[0]
	checkSafe(t, &Reply{Text: r.Text, Blocks: bottest.Blocks(t, r)})
}

func TestE2EStartupFailsFast(t *testing.T) {
	tests := []struct {
		name   string
		config func(*Config, *slacktest.Server)
		want   string
	}{
		{"rejected bot token", func(c *Config, _ *slacktest.Server) { c.BotToken = "xoxb-wrong-but-wellformed" }, "SLACK_BOT_TOKEN was refused by auth.test (invalid_auth)"},
		{"rejected app token", func(c *Config, _ *slacktest.Server) { c.AppToken = "xapp-wrong-but-wellformed" }, "SLACK_APP_TOKEN was refused by apps.connections.open (invalid_auth)"},
		{"API URL of the wrong path", func(c *Config, s *slacktest.Server) { c.APIURL = s.URL() + "/nope/" }, "answered 404"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := slacktest.NewServer()
			t.Cleanup(srv.Close)
			cfg := Config{BotToken: srv.BotToken(), AppToken: srv.AppToken(), APIURL: srv.APIURL()}
			tt.config(&cfg, srv)
			b, err := New(cfg, testIndex(t), nil)
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- b.Run(t.Context()) }()
			select {
			case err = <-done:
			case <-time.After(wait):
				t.Fatal("Run did not fail fast")
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Run = %v, want an error containing %q", err, tt.want)
			}
			for _, tok := range []string{cfg.BotToken, cfg.AppToken} {
				if strings.Contains(err.Error(), tok) {
					t.Fatalf("error reveals a token: %v", err)
				}
			}
			if strings.Contains(tt.want, "refused") && !errors.Is(err, fault.Forbidden) {
				t.Errorf("error %v is not fault.Forbidden", err)
			}
		})
	}
}

func TestE2EAPIURLWithoutTrailingSlash(t *testing.T) {
	h := startBot(t, harnessOpts{config: func(c *Config) { c.APIURL = strings.TrimSuffix(c.APIURL, "/") }})
	h.Slash("U1", "C1", "help")
	h.WaitEphemeral("C1", "U1", 1)
}

func TestE2EHealth(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	srv := httptest.NewServer(h.bot.Handler())
	t.Cleanup(srv.Close)
	get := func(path string) (int, string) {
		t.Helper()
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, _ := get("/healthz"); code != http.StatusOK {
		t.Errorf("/healthz = %d before Run, want 200", code)
	}
	if code, body := get("/readyz"); code != http.StatusServiceUnavailable || !strings.Contains(body, "not connected") {
		t.Errorf("/readyz before Run = %d %q, want 503 not connected", code, body)
	}
	h.run()
	bottest.WaitUntil(t, "ready", h.bot.Ready)
	if code, _ := get("/readyz"); code != http.StatusOK {
		t.Errorf("/readyz when connected = %d, want 200", code)
	}
	h.Slash("U1", "C1", "protein")
	h.WaitEphemeral("C1", "U1", 1)
	bottest.WaitUntil(t, "reply latency recorded", func() bool { return metricValue(t, h.bot, "paperbot_reply_seconds", "slash") == 1 })
	_, metrics := get("/metrics")
	for _, want := range []string{
		`paperbot_envelopes_total{type="slash_commands"} 1`, "paperbot_ack_seconds_count", `paperbot_reply_seconds_count{source="slash"} 1`,
		`paperbot_search_seconds_count{op="search"}`, "paperbot_reconnects_total 0", "paperbot_rate_limit_waits_total 0",
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	if err := h.stop(); err != nil {
		t.Fatal(err)
	}
	if code, _ := get("/readyz"); code != http.StatusServiceUnavailable {
		t.Errorf("/readyz after stop = %d, want 503", code)
	}
}

// TestE2EEveryEnvelopeIsAcked: envelopes slack-go cannot parse, and events
// the bot does not handle, are acknowledged too, so Slack does not retry them.
func TestE2EEveryEnvelopeIsAcked(t *testing.T) {
	h := startBot(t, harnessOpts{})
	unknownEvent, err := h.srv.SendEvent([]byte(`{"type":"event_callback","event_id":"EvX1","event":{"type":"no_such_event_type"}}`))
	if err != nil {
		t.Fatal(err)
	}
	unhandled, err := h.srv.SendEvent([]byte(`{"type":"event_callback","event_id":"EvX2","event":{"type":"reaction_added","user":"U1","reaction":"tada","item":{"type":"message","channel":"C1","ts":"1.2"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	unknownType, err := h.srv.SendEnvelope("brand_new_type", []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, env := range []string{unknownEvent, unhandled, unknownType} {
		h.WaitAck(env)
	}
	h.Sentinel("U9")
	// The sentinel's own ack may still be on the wire when its reply lands.
	if err := h.srv.WaitFor(wait, func() bool { return len(h.srv.Unacked()) == 0 }); err != nil {
		t.Errorf("unacked envelopes: %v", h.srv.Unacked())
	}
}
