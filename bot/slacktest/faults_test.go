package slacktest

import (
	"net/http"
	"testing"
	"time"

	"github.com/slack-go/slack"
)

// A slow method must not hold Close for its whole delay once the client
// has given up: test clean-up would otherwise wait on every injected delay.
func TestCloseEndsSlowResponses(t *testing.T) {
	srv := NewServer()
	srv.Slow("auth.test", time.Minute)
	api := slack.New(srv.BotToken(), slack.OptionAPIURL(srv.APIURL()),
		slack.OptionHTTPClient(&http.Client{Timeout: 100 * time.Millisecond}))
	if _, err := api.AuthTest(); err == nil {
		t.Fatal("a one-minute response arrived within the client's 100 ms timeout")
	}
	closed := make(chan struct{})
	go func() { srv.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("Close waited for the slow response")
	}
}
