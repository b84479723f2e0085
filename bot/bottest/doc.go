// Package bottest is the end-to-end test harness of paperbot's Slack app:
// a slacktest emulator, the app running against it with its log captured,
// and waits on what the app did there (acks, ephemerals, thread replies),
// each bounded by Wait.
//
// It runs any App (in practice *bot.Bot) and imports neither bot nor its
// features, so bot's own tests, cmd/paperbot's, and a feature package added
// with bot.WithCommands can all use it:
//
//	h := bottest.New(t)
//	b, _ := bot.New(bot.Config{BotToken: h.Srv.BotToken(), AppToken: h.Srv.AppToken(), APIURL: h.Srv.APIURL()}, index, h.Logger())
//	h.Start(b)
//	env := h.Slash("U1", "C1", "kv cache")
//	m := h.WaitEphemeral("C1", "U1", 1)
package bottest
