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

// Reading the records while the app posts must be safe: tests poll
// Messages and Ephemerals from their own goroutine (go test -race finds it).
func TestRecordsReadWhilePosting(t *testing.T) {
	srv := NewServer()
	defer srv.Close()
	srv.SetChannel(DefaultChannel, Channel{Name: "general", Member: true})
	srv.SetUser(User{ID: DefaultUser, Name: "tester"})
	api := slack.New(srv.BotToken(), slack.OptionAPIURL(srv.APIURL()))
	done := make(chan struct{})
	var postErr error
	go func() {
		defer close(done)
		for range 20 {
			_, _, err := api.PostMessage(DefaultChannel, slack.MsgOptionText("hello", false))
			if _, err2 := api.PostEphemeral(DefaultChannel, DefaultUser, slack.MsgOptionText("psst", false)); err == nil {
				err = err2
			}
			if err != nil {
				postErr = err
				return
			}
		}
	}()
	for {
		srv.Messages(DefaultChannel)
		srv.Ephemerals(DefaultChannel, DefaultUser)
		select {
		case <-done:
			if postErr != nil {
				t.Fatal(postErr)
			}
			if n := len(srv.Messages(DefaultChannel)); n != 20 {
				t.Fatalf("%d messages recorded, want 20", n)
			}
			return
		default:
		}
	}
}
