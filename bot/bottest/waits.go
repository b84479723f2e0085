package bottest

import "github.com/paperbot/paperbot/bot/slacktest"

// Slash runs a slash command and waits for its ack; it returns the envelope.
func (h *Harness) Slash(user, channel, text string) string {
	h.T.Helper()
	env := h.Srv.SlashCommand(slacktest.CommandOpts{UserID: user, ChannelID: channel, Text: text})
	h.WaitAck(env)
	return env
}

// WaitAck waits for the ack of envelope env and fails the test if it was
// refused.
func (h *Harness) WaitAck(env string) slacktest.Ack {
	h.T.Helper()
	a, err := h.Srv.WaitAck(env, Wait)
	if err != nil {
		h.T.Fatalf("%v", err)
	}
	if a.Err != "" {
		h.T.Fatalf("ack of %s refused: %s", env, a.Err)
	}
	return a
}

// EphemeralCount counts the live ephemerals user sees in channel.
func (h *Harness) EphemeralCount(channel, user string) int {
	return len(h.Srv.Ephemerals(channel, user))
}

// WaitEphemeral waits for the n-th (1-based) live ephemeral of user in channel.
func (h *Harness) WaitEphemeral(channel, user string, n int) slacktest.Message {
	h.T.Helper()
	var m slacktest.Message
	err := h.Srv.WaitFor(Wait, func() bool {
		es := h.Srv.Ephemerals(channel, user)
		if len(es) >= n {
			m = es[n-1]
			return true
		}
		return false
	})
	if err != nil {
		h.T.Fatalf("no ephemeral #%d for %s in %s: %v (have %d)\nlogs:\n%s", n, user, channel, err, h.EphemeralCount(channel, user), h.Logs)
	}
	return m
}

// WaitReplaced waits until the user's only ephemeral in channel has been
// replaced edits times (paging replaces it through response_url) and
// returns it.
func (h *Harness) WaitReplaced(channel, user string, edits int) slacktest.Message {
	h.T.Helper()
	var m slacktest.Message
	if err := h.Srv.WaitFor(Wait, func() bool {
		es := h.Srv.Ephemerals(channel, user)
		if len(es) != 1 {
			return false
		}
		m = es[0]
		return m.Edits == edits
	}); err != nil {
		h.T.Fatalf("ephemeral not replaced %d times: %v (ephemerals: %d)", edits, err, h.EphemeralCount(channel, user))
	}
	return m
}

// WaitThread waits for n app replies in the thread under ts.
func (h *Harness) WaitThread(channel, ts string, n int) []slacktest.Message {
	h.T.Helper()
	var replies []slacktest.Message
	err := h.Srv.WaitFor(Wait, func() bool {
		replies = BotMessages(h.Srv.Thread(channel, ts))
		return len(replies) >= n
	})
	if err != nil {
		h.T.Fatalf("want %d replies in thread %s, have %d: %v\nlogs:\n%s", n, ts, len(replies), err, h.Logs)
	}
	return replies
}

// Sentinel sends a DM and waits for its answer: once it is there, every
// envelope pushed before it has been read (they are handled in order).
func (h *Harness) Sentinel(user string) {
	h.T.Helper()
	before := len(BotMessages(h.Srv.Messages(h.Srv.DMChannel(user))))
	h.Srv.DirectMessage(user, "help")
	if err := h.Srv.WaitFor(Wait, func() bool {
		return len(BotMessages(h.Srv.Messages(h.Srv.DMChannel(user)))) > before
	}); err != nil {
		h.T.Fatalf("sentinel DM not answered: %v", err)
	}
}
