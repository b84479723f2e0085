package bot

import "context"

// DigestsOff registers the digest commands with a handler that tells the
// user why subscriptions are unavailable on this install, instead of running
// "subscribe …" as a search. reason is shown as it is (already escaped).
func DigestsOff(reason string) Option {
	off := func(context.Context, *Request) (*Reply, error) {
		return textReply(reason, Ephemeral), nil
	}
	return WithCommands(digestCommands(func(string) Handler { return off })...)
}
