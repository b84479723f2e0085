package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/slacktest"
)

// slashFault is what happens to one slash command's envelope in a burst.
type slashFault string

const (
	slashPlain slashFault = "delivered once"
	// The same envelope, same ID, delivered again at once on the other
	// socket: Slack does this on reconnects.
	slashCopied slashFault = "copied at once"
	// The same again, but after the command was answered.
	slashCopiedLate slashFault = "copied after its answer"
	// The bot's ack never reaches Slack. Slack does not retry a slash
	// command: the user sees its error, and the bot's answer.
	slashAckLost slashFault = "ack lost"
)

// slashSent is one `/paper <query>` of a burst. Each is typed by a user of
// its own, so that its answers, ephemeral replies through its
// response_url, can be told apart.
type slashSent struct {
	env, user string
	fault     slashFault
}

// sendBurst sends n commands in the default channel, half mentions (see
// sendMention) and half `/paper <query>` slash commands, in an order that
// is shuffled but the same on every run. Of the slash commands, every
// tenth from the fourth is copied (at once, or for every other one after
// its answer: see copyAnswered) and every tenth from the eighth has its
// ack lost.
func sendBurst(t *testing.T, srv *slacktest.Server, n int, tag string) ([]mentionSent, []slashSent) {
	t.Helper()
	isSlash := make([]bool, n)
	for i := range n / 2 {
		isSlash[i] = true
	}
	rng := rand.New(rand.NewPCG(45, 200))
	rng.Shuffle(n, func(i, j int) { isSlash[i], isSlash[j] = isSlash[j], isSlash[i] })
	var mentions []mentionSent
	var slashes []slashSent
	for _, slash := range isSlash {
		if !slash {
			mentions = append(mentions, sendMention(t, srv, len(mentions), tag))
			continue
		}
		i := len(slashes)
		c := slashSent{user: fmt.Sprintf("U%sSLASH%03d", strings.ToUpper(tag), i), fault: slashPlain}
		lost := i%10 == 7
		if lost {
			srv.LoseNextAck() // before the send: a quick ack would beat LoseAck
		}
		c.env = srv.SlashCommand(slacktest.CommandOpts{UserID: c.user, Text: burstQueries[i%len(burstQueries)]})
		switch {
		case i%20 == 3:
			c.fault = slashCopied
			if err := srv.RedeliverSameEnvelope(c.env); err != nil {
				t.Fatal(err)
			}
		case i%20 == 13:
			c.fault = slashCopiedLate
		case lost:
			c.fault = slashAckLost
		}
		slashes = append(slashes, c)
	}
	return mentions, slashes
}

// copyAnswered delivers each slash command marked slashCopiedLate again,
// under its envelope ID, once it is acknowledged and answered: the replica
// that did not answer it gets it.
func copyAnswered(t *testing.T, srv *slacktest.Server, slashes []slashSent, timeout time.Duration) {
	t.Helper()
	for i, c := range slashes {
		if c.fault != slashCopiedLate {
			continue
		}
		one := slashes[i : i+1]
		if err := srv.WaitFor(timeout, func() bool { return slashAnswers(srv, one)[0] > 0 }); err != nil {
			t.Fatalf("slash command %d not answered: %v", i, err)
		}
		if _, err := srv.WaitAck(c.env, timeout); err != nil {
			t.Fatal(err)
		}
		if err := srv.RedeliverSameEnvelope(c.env); err != nil {
			t.Fatal(err)
		}
	}
}

// slashAnswers counts the answers each slash command's user got where the
// bot puts them: posts accepted at a response_url (this user's, as each
// command has its own user) and, for a command without one, ephemeral
// messages from chat.postEphemeral.
func slashAnswers(srv *slacktest.Server, sent []slashSent) []int {
	if len(sent) == 0 {
		return nil
	}
	byUser := map[string]int{}
	for _, p := range srv.ResponseURLPosts() {
		if p.Error == "" {
			byUser[p.User]++
		}
	}
	for _, m := range srv.Ephemerals("", "") {
		if m.Source == "chat.postEphemeral" {
			byUser[m.Recipient]++
		}
	}
	counts := make([]int, len(sent))
	for i, c := range sent {
		counts[i] = byUser[c.user]
	}
	return counts
}

// checkSlashDeliveries fails the test unless each slash command reached
// the replicas as its fault says: a copy on the other socket, and an
// envelope whose ack was lost never retried (Slack does not retry slash
// commands) and still unacknowledged, which is when Slack shows the user
// its error. It returns how many copies and lost acks there were.
func checkSlashDeliveries(t *testing.T, srv *slacktest.Server, slashes []slashSent) (copies, lost int) {
	t.Helper()
	sockets := map[string][]int{} // envelope ID -> sockets written to
	for _, d := range srv.Deliveries() {
		if d.Type == slacktest.TypeSlashCommands {
			sockets[d.EnvelopeID] = append(sockets[d.EnvelopeID], d.Connection)
		}
	}
	lostAck := map[string]bool{}
	for _, a := range srv.Acks() {
		lostAck[a.EnvelopeID] = lostAck[a.EnvelopeID] || a.Lost
	}
	unacked := map[string]bool{}
	for _, id := range srv.Unacked() {
		unacked[id] = true
	}
	for i, c := range slashes {
		s := sockets[c.env]
		switch c.fault {
		case slashCopied, slashCopiedLate:
			if len(s) != 2 || s[0] == s[1] {
				t.Errorf("slash command %d (%s) written to sockets %v, want two different", i, c.fault, s)
			}
			copies++
		case slashAckLost:
			if len(s) != 1 {
				t.Errorf("slash command %d (%s) written to sockets %v, want one: Slack does not retry it", i, c.fault, s)
			}
			if !lostAck[c.env] {
				t.Errorf("slash command %d: its ack was to be lost, and was not", i)
			}
			lost++
			if !unacked[c.env] {
				t.Errorf("slash command %d: ack lost but the envelope counts as acknowledged", i)
			}
		default:
			if len(s) != 1 {
				t.Errorf("slash command %d (%s) written to sockets %v, want one", i, c.fault, s)
			}
		}
	}
	return copies, lost
}
