package bot

import "sort"

// APIMethod is a Web API method the bot calls, with the SlackAPI method
// that calls it and the bot scopes Slack requires for it.
type APIMethod struct {
	Client string // method name on SlackAPI (and slack-go's Client)
	Method string // Web API method
	Scopes []string
}

// APIMethods lists every Web API method the bot calls: one row per method of
// SlackAPI. The manifest test checks it against SlackAPI by reflection and
// against deploy/slack's manifest, so a new call without its scope (or a
// scope nobody uses) fails CI, not an install.
var APIMethods = []APIMethod{
	{"AuthTestContext", "auth.test", nil},
	{"PostMessageContext", "chat.postMessage", []string{"chat:write"}},
	{"PostEphemeralContext", "chat.postEphemeral", []string{"chat:write"}},
	{"PublishViewContext", "views.publish", nil},
	{"GetUserInfoContext", "users.info", []string{"users:read"}},
	// Public and private channels: subscribing checks membership.
	{"GetConversationInfoContext", "conversations.info", []string{"channels:read", "groups:read"}},
	// paperbot digest --dry-run --channel '#name' looks the name up.
	{"GetConversationsContext", "conversations.list", []string{"channels:read", "groups:read"}},
	// Digest recovery looks for its own message after a crash mid-post.
	{"GetConversationHistoryContext", "conversations.history", []string{"channels:history", "groups:history"}},
	// ... and reads its thread to finish a digest cut short between messages.
	{"GetConversationRepliesContext", "conversations.replies", []string{"channels:history", "groups:history"}},
	// Paused digests DM their creator.
	{"OpenConversationContext", "conversations.open", []string{"im:write"}},
	// Subscribing in a public channel joins it, so the digest can post.
	{"JoinConversationContext", "conversations.join", []string{"channels:join"}},
	// /paper bibtex uploads the reading list as a file: reserve, send, share.
	{"GetUploadURLExternalContext", "files.getUploadURLExternal", []string{"files:write"}},
	{"UploadToURL", "(the upload URL files.getUploadURLExternal gave)", nil},
	{"CompleteUploadExternalContext", "files.completeUploadExternal", []string{"files:write"}},
	// apps.connections.open takes the app-level token (connections:write).
	{"StartSocketModeContext", "apps.connections.open", nil},
	// Paper links pasted in a conversation unfold into cards.
	{"UnfurlMessageContext", "chat.unfurl", []string{"links:write"}},
}

// EventSubscription is a bot event the handler acts on and the scope Slack
// requires to deliver it.
type EventSubscription struct {
	Event string
	Scope string
}

// Events lists the bot events the handler subscribes to.
var Events = []EventSubscription{
	{"app_mention", "app_mentions:read"},
	{"message.im", "im:history"},
	// Replies in threads the bot answered in are follow-ups, mention or not.
	{"message.channels", "channels:history"},
	{"message.groups", "groups:history"},
	{"link_shared", "links:read"},
	{"app_home_opened", ""},
	// 👍 and 👎 on the bot's posts are votes.
	{"reaction_added", "reactions:read"},
	{"reaction_removed", "reactions:read"},
}

// SlashCommandScope is what a slash command needs.
const SlashCommandScope = "commands"

// AssistantMethods are the Web API methods of Slack's assistant surface
// (Agents & AI Apps, paid plans), called only with Config.Assistant; the
// assistant manifest (deploy/slack/manifest.assistant.yaml) adds their
// scopes to the default's.
var AssistantMethods = []APIMethod{
	{"SetAssistantThreadsSuggestedPromptsContext", "assistant.threads.setSuggestedPrompts", []string{"assistant:write"}},
	{"SetAssistantThreadsStatusContext", "assistant.threads.setStatus", []string{"assistant:write"}},
}

// AssistantEvents are the bot events of the assistant surface.
var AssistantEvents = []EventSubscription{
	{"assistant_thread_started", "assistant:write"},
}

// RequiredScopes returns every bot scope the code needs, sorted; with
// assistant, those of the assistant surface too.
func RequiredScopes(assistant ...bool) []string {
	methods, events := APIMethods, Events
	if len(assistant) > 0 && assistant[0] {
		methods = append(append([]APIMethod(nil), methods...), AssistantMethods...)
		events = append(append([]EventSubscription(nil), events...), AssistantEvents...)
	}
	set := map[string]bool{SlashCommandScope: true}
	for _, m := range methods {
		for _, s := range m.Scopes {
			set[s] = true
		}
	}
	for _, e := range events {
		if e.Scope != "" {
			set[e.Scope] = true
		}
	}
	out := make([]string, 0, len(set))
	for s := range set {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// DefaultSlashCommand is the command the manifest declares and Config
// defaults to.
const DefaultSlashCommand = "/paper"
