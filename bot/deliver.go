package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/slack-go/slack"

	"github.com/paperbot/paperbot/bot/blockkit"
)

// deliver sends a reply the way the request's source calls for: through
// response_url for slash commands and clicks, in the thread for mentions,
// in the conversation for direct messages.
func (b *Bot) deliver(ctx context.Context, req *Request, rep *Reply) error {
	rep = b.safeReply(rep)
	switch req.Source {
	case SourceSlash, SourceAction, SourceShortcut:
		if req.ResponseURL != "" {
			return b.respond(ctx, req.ResponseURL, rep)
		}
		if req.Channel == "" || rep.DeleteOriginal {
			return fmt.Errorf("no response_url to reply through")
		}
		_, err := b.api.PostEphemeralContext(ctx, req.Channel, req.User, msgOptions(req.ThreadTS, rep)...)
		return err
	case SourceMention:
		if rep.Visibility == Ephemeral {
			_, err := b.api.PostEphemeralContext(ctx, req.Channel, req.User, msgOptions(req.ThreadTS, rep)...)
			return err
		}
		// Remembered before posting: a reply to the answer may come as
		// soon as it shows.
		b.remember(ctx, req.Channel, req.ThreadTS, rep.shown)
		_, _, err := b.api.PostMessageContext(ctx, req.Channel, msgOptions(req.ThreadTS, rep)...)
		return err
	case SourceDM:
		b.remember(ctx, req.Channel, req.ThreadTS, rep.shown)
		_, _, err := b.api.PostMessageContext(ctx, req.Channel, msgOptions(req.ThreadTS, rep)...)
		return err
	}
	return fmt.Errorf("cannot reply to a %s request", req.Source)
}

// Post posts a message to a channel (in a thread when threadTS is set) for
// everyone, with link unfurling off. The reply's blocks are checked against
// Slack's limits first; a reply that fails the check is sent as its text
// alone. It returns the message timestamp. Errors are slack-go's (for
// example slack.SlackErrorResponse{Err: "not_in_channel"}).
func (b *Bot) Post(ctx context.Context, channel, threadTS string, rep Reply) (ts string, err error) {
	r := b.validReply(&rep)
	_, ts, err = b.api.PostMessageContext(ctx, channel, msgOptions(threadTS, r)...)
	return ts, err
}

func msgOptions(threadTS string, rep *Reply) []slack.MsgOption {
	opts := []slack.MsgOption{
		slack.MsgOptionText(rep.Text, false),
		slack.MsgOptionDisableLinkUnfurl(),
		slack.MsgOptionDisableMediaUnfurl(),
	}
	if len(rep.Blocks) > 0 {
		opts = append(opts, slack.MsgOptionBlocks(rep.Blocks...))
	}
	if threadTS != "" {
		opts = append(opts, slack.MsgOptionTS(threadTS))
	}
	return opts
}

// safeReply makes sure a reply stays within Slack's limits and has a real
// text fallback, with the cheap typed check (replies are rendered by tested
// renderers; this catches a bug before Slack does). Failures are logged and
// degrade to text, never to an invalid_blocks error the user would not see.
func (b *Bot) safeReply(rep *Reply) *Reply {
	return b.checkedReply(rep, checkLimits)
}

// validReply is safeReply with the full Block Kit validation, for messages
// built outside this package's renderers (Post).
func (b *Bot) validReply(rep *Reply) *Reply {
	return b.checkedReply(rep, blockkit.ValidateMessage)
}

func (b *Bot) checkedReply(rep *Reply, check func(string, []slack.Block) error) *Reply {
	r := *rep
	if r.DeleteOriginal {
		return &r
	}
	if err := check(r.Text, r.Blocks); err != nil {
		b.metrics.errors.WithLabelValues("render").Inc()
		b.log.Error("reply outside Slack's limits; sending text only", "err", err)
		if len(r.Text) == 0 || blockkit.ValidateMessage(r.Text, nil) != nil {
			r.Text = "Sorry, I could not show that result."
		}
		r.Blocks = nil
	}
	return &r
}

// responsePayload is a message sent to a response_url.
type responsePayload struct {
	ResponseType    string        `json:"response_type,omitempty"`
	Text            string        `json:"text,omitempty"`
	Blocks          []slack.Block `json:"blocks,omitempty"`
	ReplaceOriginal bool          `json:"replace_original"`
	DeleteOriginal  bool          `json:"delete_original"`
	UnfurlLinks     bool          `json:"unfurl_links"`
	UnfurlMedia     bool          `json:"unfurl_media"`
}

// maxResponseRetries bounds how often a rate-limited response_url post is retried.
const maxResponseRetries = 3

// respond posts rep to a response_url, waiting out 429s (Retry-After) up to
// three times.
func (b *Bot) respond(ctx context.Context, responseURL string, rep *Reply) error {
	if u, err := url.Parse(responseURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return fmt.Errorf("response_url is not an http(s) URL")
	}
	p := responsePayload{Text: rep.Text, Blocks: rep.Blocks, ReplaceOriginal: rep.ReplaceOriginal, DeleteOriginal: rep.DeleteOriginal}
	if !rep.DeleteOriginal {
		p.ResponseType = "ephemeral"
		if rep.Visibility == InChannel {
			p.ResponseType = "in_channel"
		}
	} else {
		p.Text, p.Blocks = "", nil
	}
	body, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("encode response: %w", err)
	}
	for attempt := 0; ; attempt++ {
		wait, err := b.postResponse(ctx, responseURL, body)
		if err == nil {
			return nil
		}
		if wait <= 0 || attempt == maxResponseRetries {
			return err
		}
		b.metrics.rateLimitWaits.Inc()
		if b.retryWait != nil {
			wait = b.retryWait(wait)
		}
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		}
	}
}

// postResponse makes one POST; wait > 0 means rate limited, retry after wait.
func (b *Bot) postResponse(ctx context.Context, responseURL string, body []byte) (wait time.Duration, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, responseURL, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	resp, err := b.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode == http.StatusTooManyRequests {
		secs, perr := strconv.Atoi(resp.Header.Get("Retry-After"))
		if perr != nil || secs < 1 {
			secs = 1
		}
		return time.Duration(min(secs, 60)) * time.Second, errors.New("response_url rate limited")
	}
	if resp.StatusCode/100 != 2 {
		return 0, fmt.Errorf("response_url answered %s: %s", resp.Status, bytes.TrimSpace(data))
	}
	// Slack answers "ok" as text or {"ok":true}; {"ok":false,"error":…} is a failure.
	var r struct {
		OK    *bool  `json:"ok"`
		Error string `json:"error"`
	}
	if json.Unmarshal(data, &r) == nil && r.OK != nil && !*r.OK {
		return 0, slack.SlackErrorResponse{Err: r.Error}
	}
	return 0, nil
}
