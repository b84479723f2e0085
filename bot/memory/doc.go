// Package memory is the team's memory of papers: reading lists (a user's
// own, and a channel's for reading groups) and votes on papers in a
// channel. It holds the domain values and the Store interface they are kept
// behind; Slack lives in package bot, the embedded database in
// bot/boltstore.
//
// A user's votes and personal list are theirs: the Store hands them out by
// user, and Forget deletes them.
package memory
