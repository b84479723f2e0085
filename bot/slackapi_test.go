package bot

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/paperbot/paperbot/fault"
)

// fakeSlack is a SlackAPI whose answers a test sets; a method the test did
// not set panics (the embedded nil interface), so an unexpected call shows.
type fakeSlack struct {
	SlackAPI
	postErr error          // chat.postMessage fails with it
	channel *slack.Channel // what conversations.info answers
	posted  []string       // channels posted to
	joined  []string       // channels joined
	user    func() (*slack.User, error)
}

func (f *fakeSlack) PostMessageContext(_ context.Context, channel string, _ ...slack.MsgOption) (string, string, error) {
	if f.postErr != nil {
		return "", "", f.postErr
	}
	f.posted = append(f.posted, channel)
	return channel, "1700000000.000100", nil
}

func (f *fakeSlack) GetConversationInfoContext(context.Context, *slack.GetConversationInfoInput) (*slack.Channel, error) {
	return f.channel, nil
}

// newFakeSlackBot is a Bot that is never run, calling api instead of Slack.
func newFakeSlackBot(t *testing.T, api SlackAPI, opts ...Option) *Bot {
	t.Helper()
	b, err := New(Config{BotToken: testBotToken, AppToken: testAppToken, APIURL: "http://127.0.0.1:9/api/", HTTPTimeout: 5 * time.Second},
		testIndex(t), nil, append(opts, WithSlackAPI(api))...)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Without the emulator: Share in a conversation the bot is not in tells
// the user how to invite it, as an Invalid refusal rather than an apology.
func TestShareWhereTheBotCannotPost(t *testing.T) {
	api := &fakeSlack{postErr: slack.SlackErrorResponse{Err: "not_in_channel"}}
	b := newFakeSlackBot(t, api)
	req := &Request{Source: SourceAction, User: "U1", Channel: "C1", Invocation: "/paper ",
		Action: &ActionInfo{ID: actionShare + ":0", Value: viewState{Kind: viewSearch, Arg: "kv cache"}.encode(), Ephemeral: true}}
	rep, err := b.dispatch(context.Background(), req)
	if rep != nil || fault.KindOf(err) != fault.Invalid {
		t.Fatalf("share = %v, %v; want an Invalid refusal", rep, err)
	}
	got := b.errorReply(req, err).Text
	if !strings.Contains(got, "I can't post in this conversation") || !strings.Contains(got, "/invite @paperbot") {
		t.Errorf("the user reads %q", got)
	}
}

// Without the emulator: Share posts for everyone, then deletes the private
// message it came from, and says it changed something visible.
func TestSharePostsThenDeletesThePrivateMessage(t *testing.T) {
	api := &fakeSlack{}
	b := newFakeSlackBot(t, api)
	req := &Request{Source: SourceAction, User: "U1", Channel: "C1", Invocation: "/paper ",
		Action: &ActionInfo{ID: actionShare + ":0", Value: viewState{Kind: viewSearch, Arg: "kv cache"}.encode(), Ephemeral: true}}
	rep, err := b.dispatch(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(api.posted) != 1 || api.posted[0] != "C1" {
		t.Errorf("posted to %v, want [C1]", api.posted)
	}
	if rep == nil || !rep.DeleteOriginal {
		t.Errorf("reply %+v, want DeleteOriginal", rep)
	}
}
