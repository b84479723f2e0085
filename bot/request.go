package bot

import (
	"time"

	"github.com/slack-go/slack"
)

// Source is where a request came from; it decides how the reply travels.
type Source int

const (
	// SourceSlash is a slash command; replies go to its response_url.
	SourceSlash Source = iota + 1
	// SourceMention is an app_mention in a channel; replies go in a thread
	// under the mention, visible to the channel.
	SourceMention
	// SourceDM is a direct message to the bot; replies go to the DM.
	SourceDM
	// SourceAction is a button click; replies go to its response_url.
	SourceAction
	// SourceHome is a user opening the App Home tab; the bot publishes the
	// Home view instead of replying.
	SourceHome
	// SourceShortcut is a message shortcut; replies go to its
	// response_url, privately.
	SourceShortcut
	// SourceAssistant is a user opening an assistant thread; the bot
	// offers suggested prompts instead of replying.
	SourceAssistant
	// SourceUnfurl is a message with paper links (link_shared); the bot
	// unfolds them with chat.unfurl instead of replying.
	SourceUnfurl
	// SourceReaction is a reaction added to or removed from one of the
	// bot's messages; it counts as a vote and gets no reply.
	SourceReaction
)

func (s Source) String() string {
	switch s {
	case SourceSlash:
		return "slash"
	case SourceMention:
		return "mention"
	case SourceDM:
		return "dm"
	case SourceAction:
		return "action"
	case SourceHome:
		return "home"
	case SourceUnfurl:
		return "unfurl"
	case SourceShortcut:
		return "shortcut"
	case SourceAssistant:
		return "assistant"
	case SourceReaction:
		return "reaction"
	}
	return "unknown"
}

// Request is one thing a user asked, normalised from a slash command, a
// mention, a direct message or a button click.
type Request struct {
	Source  Source
	User    string // user ID of the person asking
	Channel string // channel (or DM) ID it happened in
	// ThreadTS is the thread a mention or DM reply belongs in ("" for none).
	ThreadTS string
	// Text is the user's text as plain text: the bot's own mention removed,
	// Slack's &amp;/&lt;/&gt; decoded and links reduced to their label.
	// It is never escaped: renderers escape.
	Text string
	// Args is Text after the command word, set by the router.
	Args string
	// Command is the slash command used ("/paper"); empty otherwise.
	Command string
	// Invocation is how commands are typed where the request came from:
	// "/paper " for slash commands and buttons, "@name " in channels and ""
	// in direct messages. Help and hints use it.
	Invocation  string
	ResponseURL string
	TriggerID   string
	// Action is set for button clicks.
	Action *ActionInfo
	// Shortcut is set for message shortcuts.
	Shortcut *ShortcutInfo
	// Links are the URLs of a SourceUnfurl request, in the message at
	// MessageTS.
	Links     []string
	MessageTS string
	// Reaction is set for reactions (SourceReaction).
	Reaction *ReactionInfo
	// dedup identifies the delivery; a request is dropped as a duplicate
	// when any key was already handled.
	dedup []dedupKey
	// received is when the envelope was read.
	received time.Time
	// threadOnly marks a channel message that does not mention the bot: it
	// is answered only as a follow-up in a thread the bot answered in.
	threadOnly bool
	// msgTS is the ts of the user's message an event carries: the same
	// message delivered as two events is answered once.
	msgTS string
}

// ActionInfo describes a button click.
type ActionInfo struct {
	ID      string // action_id
	BlockID string
	Value   string
	// MessageTS is the message the button is in; Ephemeral reports whether
	// that message is ephemeral (only then can it be replaced or deleted).
	MessageTS string
	Ephemeral bool
	// Message is the clicked message with its blocks when Slack sent it
	// (channel messages; not ephemerals or App Home).
	Message *slack.Message
}

// ReactionInfo describes a reaction on one of the bot's messages.
type ReactionInfo struct {
	Name      string // without colons: "+1", "-1::skin-tone-2"
	MessageTS string
	Added     bool // false when it was taken back
}

// helpCommand is how the user asks for help where the request came from.
func (r *Request) helpCommand() string { return r.Invocation + "help" }
