package bot

import "context"

// Handler answers one request. A nil Reply with a nil error sends nothing.
// A handler that changed something people can see says so in
// Reply.SideEffect, also beside an error.
// Errors are translated at the edge (errorReply): a *fault.Error of any kind
// but Internal reaches the user as its message, anything else as a generic
// apology (and the log).
type Handler func(ctx context.Context, req *Request) (*Reply, error)

// ActionHandler answers a button click. The request's Action is set.
type ActionHandler = Handler
