package bot

import (
	"errors"
	"strings"
	"testing"
	"time"
)

const (
	testBotToken = "xoxb-fake-bot-token-abcdefghij"
	testAppToken = "xapp-fake-app-token-abcdefghij"
)

func TestConfigTokens(t *testing.T) {
	secret := "xoxp-SECRET-user-token-value"
	tests := []struct {
		name     string
		bot, app string
		want     error
		wantText string
	}{
		{"valid", testBotToken, testAppToken, nil, ""},
		{"missing bot token", "", testAppToken, ErrBotToken, "SLACK_BOT_TOKEN is not set"},
		{"missing app token", testBotToken, "", ErrAppToken, "SLACK_APP_TOKEN is not set"},
		{"user token as bot token", secret, testAppToken, ErrBotToken, "looks like a user token"},
		{"tokens swapped", testAppToken, testBotToken, ErrBotToken, "looks like an app-level token"},
		{"truncated bot token", "xoxb-123", testAppToken, ErrBotToken, "too short"},
		{"garbage", "hello world", testAppToken, ErrBotToken, "does not look like a Slack token"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Config{BotToken: tt.bot, AppToken: tt.app}.withDefaults()
			if tt.want == nil {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.wantText) {
				t.Fatalf("error = %v, want %v mentioning %q", err, tt.want, tt.wantText)
			}
			for _, tok := range []string{tt.bot, tt.app, "SECRET"} {
				if len(tok) > 8 && strings.Contains(err.Error(), tok) {
					t.Fatalf("error %q reveals a token", err)
				}
			}
		})
	}
}

func TestConfigDefaults(t *testing.T) {
	c, err := Config{BotToken: testBotToken, AppToken: testAppToken, APIURL: "http://127.0.0.1:9/api", DedupTTL: time.Minute, PageSize: 99}.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	if c.APIURL != "http://127.0.0.1:9/api/" {
		t.Errorf("APIURL = %q, want a trailing slash added", c.APIURL)
	}
	if c.DedupTTL < 10*time.Minute {
		t.Errorf("DedupTTL = %v, want at least 10m", c.DedupTTL)
	}
	if c.PageSize != maxPageSize {
		t.Errorf("PageSize = %d, want capped at %d", c.PageSize, maxPageSize)
	}
	if c.Workers <= 0 || c.AckTimeout <= 0 || c.ShutdownGrace != 10*time.Second || c.SlashCommand != "/paper" {
		t.Errorf("defaults not applied: %+v", c)
	}
	if _, err := (Config{BotToken: testBotToken, AppToken: testAppToken, APIURL: "ftp://x"}).withDefaults(); err == nil {
		t.Error("ftp API URL accepted")
	}
}
