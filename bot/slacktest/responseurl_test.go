package slacktest

import (
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"
)

func buttons(ids ...string) slack.Block {
	var els []slack.BlockElement
	for _, id := range ids {
		els = append(els, slack.NewButtonBlockElement(id, "v-"+id, slack.NewTextBlockObject(slack.PlainTextType, id, false, false)))
	}
	return slack.NewActionBlock("nav", els...)
}

// postPage registers C1 and U1 and posts an ephemeral "page 1" with
// prev/next buttons to U1, as the bot would.
func postPage(t *testing.T, h *harness) Message {
	t.Helper()
	h.srv.SetChannel("C1", Channel{Member: true})
	h.srv.SetUser(User{ID: "U1"})
	ts, err := h.api.PostEphemeral("C1", "U1", slack.MsgOptionText("page 1", false), slack.MsgOptionBlocks(buttons("prev", "next")))
	if err != nil {
		t.Fatal(err)
	}
	eph := h.srv.Ephemerals("C1", "U1")
	if len(eph) != 1 || eph[0].TS != ts {
		t.Fatalf("ephemerals = %+v", eph)
	}
	return eph[0]
}

func TestResponseURLReplaceAndDeleteOriginal(t *testing.T) {
	tests := []struct {
		name  string
		opts  func(url string) []slack.MsgOption
		check func(t *testing.T, h *harness, orig Message)
	}{
		{"replace_original", func(url string) []slack.MsgOption {
			return []slack.MsgOption{slack.MsgOptionReplaceOriginal(url), slack.MsgOptionText("page 2", false), slack.MsgOptionBlocks(buttons("prev", "next"))}
		}, func(t *testing.T, h *harness, orig Message) {
			eph := h.srv.Ephemerals("C1", "U1")
			if len(eph) != 1 || eph[0].TS != orig.TS || eph[0].Text != "page 2" || eph[0].Edits != 1 {
				t.Fatalf("ephemerals = %+v, want page 1 replaced in place", eph)
			}
		}},
		{"delete_original", func(url string) []slack.MsgOption {
			return []slack.MsgOption{slack.MsgOptionDeleteOriginal(url)}
		}, func(t *testing.T, h *harness, _ Message) {
			if eph := h.srv.Ephemerals("C1", "U1"); len(eph) != 0 {
				t.Fatalf("ephemerals = %+v, want none", eph)
			}
		}},
		{"in_channel share", func(url string) []slack.MsgOption {
			return []slack.MsgOption{slack.MsgOptionResponseURL(url, "in_channel"), slack.MsgOptionText("shared by <@U1>", false)}
		}, func(t *testing.T, h *harness, _ Message) {
			if msgs := h.srv.Messages("C1"); len(msgs) != 1 || msgs[0].Text != "shared by <@U1>" {
				t.Fatalf("channel messages = %+v", msgs)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := start(t)
			posted := make(chan struct{})
			h.setHandler(func(evt socketmode.Event) {
				if evt.Type != socketmode.EventTypeInteractive {
					return
				}
				h.ack(evt.Request, nil)
				url := evt.Data.(slack.InteractionCallback).ResponseURL
				if _, _, err := h.api.PostMessage("", tt.opts(url)...); err != nil {
					t.Errorf("response_url: %v", err)
				}
				close(posted)
			})
			orig := postPage(t, h)
			if _, err := h.srv.Click(orig, "U1", "next"); err != nil {
				t.Fatal(err)
			}
			select {
			case <-posted:
			case <-time.After(wait):
				t.Fatal("no block action reached the client")
			}
			if err := h.srv.WaitFor(wait, func() bool { return len(h.srv.ResponseURLPosts()) == 1 }); err != nil {
				t.Fatal(err)
			}
			if p := h.srv.ResponseURLPosts()[0]; p.Error != "" || p.User != "U1" || p.Channel != "C1" {
				t.Fatalf("response_url post = %+v", p)
			}
			tt.check(t, h, orig)
		})
	}
}

func TestBlockActionPayload(t *testing.T) {
	h := start(t)
	got := make(chan slack.InteractionCallback, 1)
	h.setHandler(func(evt socketmode.Event) {
		if evt.Type == socketmode.EventTypeInteractive {
			h.ack(evt.Request, nil)
			got <- evt.Data.(slack.InteractionCallback)
		}
	})
	orig := postPage(t, h)
	if _, err := h.srv.Click(orig, "U1", "missing"); err == nil {
		t.Fatal("clicking an action_id that is not rendered must fail")
	}
	if _, err := h.srv.Click(orig, "U2", "next"); err == nil {
		t.Fatal("another user cannot click someone's ephemeral")
	}
	env, err := h.srv.Click(orig, "U1", "next")
	if err != nil {
		t.Fatal(err)
	}
	var cb slack.InteractionCallback
	select {
	case cb = <-got:
	case <-time.After(wait):
		t.Fatal("no block action reached the client")
	}
	acts := cb.ActionCallback.BlockActions
	if cb.Type != slack.InteractionTypeBlockActions || len(acts) != 1 || acts[0].ActionID != "next" ||
		acts[0].Value != "v-next" || acts[0].BlockID != "nav" || cb.User.ID != "U1" || cb.Channel.ID != "C1" ||
		!cb.Container.IsEphemeral || cb.Container.MessageTs != orig.TS || cb.ResponseURL == "" || cb.TriggerID == "" {
		t.Fatalf("block action = %+v", cb)
	}
	if _, err := h.srv.WaitAck(env, wait); err != nil {
		t.Fatal(err)
	}
}

func TestResponseURLLimits(t *testing.T) {
	var offset atomic.Int64 // clock advance in ns, read by server goroutines
	start := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	srv := NewServer(WithResponseURLLimits(2, time.Minute), WithClock(func() time.Time {
		return start.Add(time.Duration(offset.Load()))
	}))
	defer srv.Close()
	srv.SlashCommand(CommandOpts{UserID: "U1", ChannelID: "C1"})
	srv.mu.Lock()
	var url string
	for tok := range srv.responseURLs {
		url = srv.URL() + "/response/" + tok
	}
	srv.mu.Unlock()
	api := newAPI(srv)
	post := func(text string) error {
		_, _, err := api.PostMessage("", slack.MsgOptionResponseURL(url, "ephemeral"), slack.MsgOptionText(text, false))
		return err
	}
	if err := post(""); slackErr(err) != "no_text" {
		t.Fatalf("empty text: %v, want no_text", err)
	}
	for i := 0; i < 2; i++ {
		if err := post("ok"); err != nil {
			t.Fatalf("use %d: %v", i+1, err)
		}
	}
	err := post("third")
	if se, ok := err.(slack.StatusCodeError); !ok || se.Code != http.StatusNotFound {
		t.Fatalf("third use: %v, want 404", err)
	}
	if p := srv.ResponseURLPosts(); p[len(p)-1].Error != "used_url" {
		t.Fatalf("last post = %+v", p[len(p)-1])
	}
	srv.SlashCommand(CommandOpts{UserID: "U1", ChannelID: "C1"})
	srv.mu.Lock()
	for tok, ru := range srv.responseURLs {
		if ru.uses == 0 {
			url = srv.URL() + "/response/" + tok
		}
	}
	srv.mu.Unlock()
	offset.Store(int64(2 * time.Minute))
	if err := post("late"); err == nil {
		t.Fatal("expired url accepted a post")
	}
	if p := srv.ResponseURLPosts(); p[len(p)-1].Error != "expired_url" {
		t.Fatalf("last post = %+v, want expired_url", p[len(p)-1])
	}
}
