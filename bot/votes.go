package bot

import (
	"context"
	"fmt"
	"strings"

	"github.com/slack-go/slack"

	"github.com/paperbot/paperbot/bot/memory"
)

// voteOf reads the direction of a vote button's action_id (vote:up:N).
func voteOf(actionID string) int {
	switch {
	case strings.HasPrefix(actionID, actionVote+":up"):
		return memory.Up
	case strings.HasPrefix(actionID, actionVote+":down"):
		return memory.Down
	}
	return 0
}

// toggleVote makes user's vote on paper in channel dir, or takes it back
// when it already is dir (a second click on the same button). It returns
// the vote now held (0 when taken back).
func (b *Bot) toggleVote(ctx context.Context, channel, user, paper string, dir int) (int, error) {
	cur, err := b.memory.VoteOf(ctx, channel, user, paper)
	if err != nil {
		return 0, err
	}
	if cur == dir {
		return 0, b.memory.ClearVote(ctx, channel, user, paper)
	}
	return dir, b.memory.SetVote(ctx, memory.Vote{Channel: channel, User: user, PaperID: paper, Value: dir, At: b.now().UTC()})
}

// tallyOf counts a paper's votes in a channel.
func (b *Bot) tallyOf(ctx context.Context, channel, paper string) (memory.Tally, error) {
	votes, err := b.memory.Votes(ctx, channel)
	if err != nil {
		return memory.Tally{}, err
	}
	return memory.Tallies(votes)[paper], nil
}

// actVote records a 👍 or 👎 click: one vote per user, paper and channel,
// the latest counting, a second click on the same button taking it back.
// In a channel message the card's buttons then show the new tally; in a
// private one the clicker is told in one line.
func (b *Bot) actVote(ctx context.Context, req *Request) (*Reply, error) {
	dir, id := voteOf(req.Action.ID), paperID(req.Action.Value)
	if dir == 0 || id == "" {
		return nil, errStaleButton
	}
	if req.Channel == "" {
		return nil, refuse("vote", "Votes count in a channel: vote on a card in the channel it was posted in.")
	}
	held, err := b.toggleVote(ctx, req.Channel, req.User, id, dir)
	if err != nil {
		return nil, fmt.Errorf("vote: %w", err)
	}
	tally, err := b.tallyOf(ctx, req.Channel, id)
	if err != nil {
		return nil, fmt.Errorf("vote: %w", err)
	}
	if m := req.Action.Message; m != nil && !req.Action.Ephemeral {
		return &Reply{Text: m.Text, Blocks: withTally(m.Blocks.BlockSet, id, tally), Visibility: InChannel,
			ReplaceOriginal: true, SideEffect: true}, nil
	}
	var text string
	switch held {
	case memory.Up:
		text = ":+1: You like this paper here"
	case memory.Down:
		text = ":-1: You'd rather not see papers like this here"
	default:
		text = "Vote taken back"
	}
	text += fmt.Sprintf(" (this channel: :+1: %d · :-1: %d).", tally.Up, tally.Down)
	if held != 0 {
		text += " Click the same button again to take it back."
	}
	rep := textReply(text, Ephemeral)
	rep.SideEffect = true
	return rep, nil
}

// withTally returns blocks with the vote buttons of paper showing tally.
func withTally(blocks []slack.Block, paper string, tally memory.Tally) []slack.Block {
	for _, bl := range blocks {
		ab, ok := bl.(*slack.ActionBlock)
		if !ok || ab.Elements == nil {
			continue
		}
		for _, el := range ab.Elements.ElementSet {
			btn, ok := el.(*slack.ButtonBlockElement)
			if !ok || btn.Value != paper || btn.Text == nil {
				continue
			}
			switch voteOf(btn.ActionID) {
			case memory.Up:
				btn.Text.Text = voteLabel(":+1:", tally.Up)
			case memory.Down:
				btn.Text.Text = voteLabel(":-1:", tally.Down)
			}
		}
	}
	return blocks
}

// reactionVote is the vote a reaction name stands for: +1 and -1 (with any
// skin tone), else 0.
func reactionVote(name string) int {
	name, _, _ = strings.Cut(name, "::")
	switch name {
	case "+1", "thumbsup":
		return memory.Up
	case "-1", "thumbsdown":
		return memory.Down
	}
	return 0
}

// onReaction counts a :+1: or :-1: on one of the bot's posts (a digest, a
// shared result) as the reacting user's vote on each paper of that post;
// taking the reaction back takes the vote back. Nothing is posted.
func (b *Bot) onReaction(ctx context.Context, req *Request) (*Reply, error) {
	r := req.Reaction
	dir := reactionVote(r.Name)
	if b.memory == nil || dir == 0 {
		return nil, nil
	}
	// conversations.replies finds a message in a thread as well as at the
	// top; the thread's parent always comes first, so look for the one.
	msgs, _, _, err := b.api.GetConversationRepliesContext(ctx, &slack.GetConversationRepliesParameters{
		ChannelID: req.Channel, Timestamp: r.MessageTS, Oldest: r.MessageTS, Latest: r.MessageTS, Inclusive: true, Limit: 2})
	if err != nil {
		return nil, fmt.Errorf("reaction: reading the message: %w", err)
	}
	var blocks []slack.Block
	for _, m := range msgs {
		if m.Timestamp == r.MessageTS {
			blocks = m.Blocks.BlockSet
		}
	}
	for _, id := range cardPaperIDs(blocks) {
		var err error
		if r.Added {
			err = b.memory.SetVote(ctx, memory.Vote{Channel: req.Channel, User: req.User, PaperID: id, Value: dir, At: b.now().UTC()})
		} else if cur, verr := b.memory.VoteOf(ctx, req.Channel, req.User, id); verr != nil {
			err = verr
		} else if cur == dir {
			err = b.memory.ClearVote(ctx, req.Channel, req.User, id)
		}
		if err != nil {
			return nil, fmt.Errorf("reaction: %w", err)
		}
	}
	return &Reply{SideEffect: true}, nil
}

// cardPaperIDs are the papers of the cards in blocks, in order: the values
// of their Save buttons.
func cardPaperIDs(blocks []slack.Block) []string {
	var ids []string
	for _, bl := range blocks {
		ab, ok := bl.(*slack.ActionBlock)
		if !ok || ab.Elements == nil {
			continue
		}
		for _, el := range ab.Elements.ElementSet {
			if btn, ok := el.(*slack.ButtonBlockElement); ok && strings.HasPrefix(btn.ActionID, actionSave+":") && btn.Value != "" {
				ids = append(ids, btn.Value)
			}
		}
	}
	return ids
}
