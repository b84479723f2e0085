package bot

import (
	"context"

	"github.com/slack-go/slack"
)

// SlackAPI is the Slack Web API as paperbot uses it: exactly the methods the
// bot, its digests and its start-up checks call, no more. *slack.Client
// implements it; tests may hand New a fake (WithSlackAPI) to run handlers
// without the emulator.
//
// APIMethods gives each method its Web API name and the bot scopes Slack
// requires; the manifest test checks by reflection that the two lists are
// the same, so a new call without its scope fails CI, not an install.
type SlackAPI interface {
	AuthTestContext(ctx context.Context) (*slack.AuthTestResponse, error)
	PostMessageContext(ctx context.Context, channelID string, options ...slack.MsgOption) (channel, timestamp string, err error)
	PostEphemeralContext(ctx context.Context, channelID, userID string, options ...slack.MsgOption) (timestamp string, err error)
	PublishViewContext(ctx context.Context, req slack.PublishViewContextRequest) (*slack.ViewResponse, error)
	GetUserInfoContext(ctx context.Context, user string, options ...slack.GetUserInfoOption) (*slack.User, error)
	GetConversationInfoContext(ctx context.Context, input *slack.GetConversationInfoInput) (*slack.Channel, error)
	GetConversationsContext(ctx context.Context, params *slack.GetConversationsParameters) (channels []slack.Channel, nextCursor string, err error)
	GetConversationHistoryContext(ctx context.Context, params *slack.GetConversationHistoryParameters) (*slack.GetConversationHistoryResponse, error)
	GetConversationRepliesContext(ctx context.Context, params *slack.GetConversationRepliesParameters) (msgs []slack.Message, hasMore bool, nextCursor string, err error)
	OpenConversationContext(ctx context.Context, params *slack.OpenConversationParameters) (channel *slack.Channel, noOp, alreadyOpen bool, err error)
	JoinConversationContext(ctx context.Context, channelID string) (channel *slack.Channel, warning string, warnings []string, err error)
	StartSocketModeContext(ctx context.Context) (info *slack.SocketModeConnection, websocketURL string, err error)
	UnfurlMessageContext(ctx context.Context, channelID, timestamp string, unfurls map[string]slack.Attachment, options ...slack.MsgOption) (string, string, string, error)
	SetAssistantThreadsSuggestedPromptsContext(ctx context.Context, params slack.AssistantThreadsSetSuggestedPromptsParameters) error
	SetAssistantThreadsStatusContext(ctx context.Context, params slack.AssistantThreadsSetStatusParameters) error
	GetUploadURLExternalContext(ctx context.Context, params slack.GetUploadURLExternalParameters) (*slack.GetUploadURLExternalResponse, error)
	UploadToURL(ctx context.Context, params slack.UploadToURLParameters) error
	CompleteUploadExternalContext(ctx context.Context, params slack.CompleteUploadExternalParameters) (*slack.CompleteUploadExternalResponse, error)
}

var _ SlackAPI = (*slack.Client)(nil)
