package digest

import (
	"fmt"
	"strings"
)

// PauseReason explains, for people, why posting failed with a Slack error code.
func PauseReason(code string) string {
	switch code {
	case "not_in_channel", "channel_not_found":
		return "I'm not a member of the channel (or can no longer see it)"
	case "is_archived":
		return "the channel is archived"
	case "account_inactive", "token_revoked", "invalid_auth":
		return "paperbot's access to this workspace was revoked"
	case "missing_scope", "restricted_action":
		return "paperbot is not allowed to post there"
	}
	return "Slack refused the post (" + code + ")"
}

// pauseFix says how to fix the cause of a pause, as Slack mrkdwn.
func pauseFix(code, channelID, id string) string {
	resume := fmt.Sprintf("then run `/paper resume %s` there", id)
	switch code {
	case "not_in_channel", "channel_not_found":
		return fmt.Sprintf("run `/invite @paperbot` in <#%s>, %s.", channelID, resume)
	case "is_archived":
		return fmt.Sprintf("unarchive <#%s> and run `/invite @paperbot` in it, %s; or subscribe again in another channel.", channelID, resume)
	case "account_inactive", "token_revoked", "invalid_auth", "missing_scope", "restricted_action":
		return fmt.Sprintf("ask a workspace admin to reinstall paperbot (it needs the chat:write scope), invite it with `/invite @paperbot`, %s.", resume)
	}
	return fmt.Sprintf("check the channel, run `/invite @paperbot` in <#%s>, %s.", channelID, resume)
}

// PauseNotice is the direct message sent to a subscription's creator when
// it is paused because posting failed with a Slack error code.
func PauseNotice(s Subscription, code string) string {
	return fmt.Sprintf("Your paper digest *%s* (`%s`) in <#%s> is paused: %s.\nTo fix it, %s",
		EscapeText(s.Topic), s.ID, s.ChannelID, PauseReason(code), pauseFix(code, s.ChannelID, s.ID))
}

var escaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// EscapeText escapes user text for Slack mrkdwn so it cannot ping or link.
func EscapeText(s string) string { return escaper.Replace(s) }
