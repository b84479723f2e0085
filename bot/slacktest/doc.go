// Package slacktest is a loopback Slack for end-to-end tests, in the spirit of
// net/http/httptest: a Server on 127.0.0.1 that speaks Socket Mode (through
// apps.connections.open and a WebSocket), the Web API methods paperbot calls,
// and response_url, so that tests run the real slack-go client against it.
//
//	srv := slacktest.NewServer()
//	defer srv.Close()
//	api := slack.New(srv.BotToken(), slack.OptionAPIURL(srv.APIURL()),
//		slack.OptionAppLevelToken(srv.AppToken()))
//	client := socketmode.New(api)
//	go client.RunContext(ctx)              // or the real bot's run function
//	srv.WaitConnected(1, 2*time.Second)      // first socket up, hello sent
//	env := srv.SlashCommand(slacktest.CommandOpts{UserID: "U1", ChannelID: "C1", Text: "transformers"})
//	ack, err := srv.WaitAck(env, time.Second)           // ack latency and payload
//	m, err := srv.WaitForMessage(time.Second, func(m slacktest.Message) bool { return m.Ephemeral })
//
// The test driver pushes envelopes (SlashCommand, Mention, DirectMessage,
// BotMessage, EditMessage, AppHomeOpened, BlockAction, SendEvent, Redeliver;
// Say for a channel message as an app reading channels gets it, a mention
// twice as message and app_mention; PasteLinks for link_shared on the
// WithUnfurlDomains domains; MessageShortcut; AssistantThreadStarted);
// envelopes pushed while no socket is connected are queued and delivered after
// the next hello. Everything the app sends is recorded (Messages, Ephemerals,
// ResponseURLPosts, HomeViews, Calls, Acks, a message's chat.unfurl
// Unfurls, AssistantStatuses and SuggestedPrompts) and can be awaited with WaitFor,
// which wakes on every recorded change (with a 10 ms backstop for conditions
// on the app's own state), so tests never sleep.
//
// The server is honest where Slack is strict: wrong tokens get invalid_auth,
// blocks are checked with bot/blockkit (invalid_blocks, or invalid_arguments
// for views, with Slack's error list), a message needs a non-empty text
// fallback (no_text; stricter than Slack, which only warns, unless
// WithLenientText), text over 40,000 characters is msg_too_long, unknown
// channels are channel_not_found, a channel the bot is not in gives
// not_in_channel, an archived one is_archived, and response_url accepts 5 uses
// within 30 minutes.
//
// Faults are injected per call: Fail/FailNext (any error name), RateLimit (429
// with Retry-After), Slow, DropSocket (abrupt close), Disconnect (a disconnect
// frame), PauseConnections (hold apps.connections.open to widen the reconnect
// window), and WithRedelivery (Events API envelopes not acked in time are sent
// again with retry_attempt incremented and the same event_id).
//
// Several sockets of one app (one per replica) share the envelopes under
// WithSpread, as Slack spreads them: each to exactly one socket, a retry to
// another; LoseAck drops an ack in transit so the envelope is retried, and
// Deliveries records which socket got each envelope.
//
// All methods are safe for concurrent use.
package slacktest
