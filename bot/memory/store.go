package memory

import "context"

// Store keeps reading lists and votes. Implementations are safe for
// concurrent use; every method is atomic. Errors carry fault.Invalid (a value
// that fails Validate) or fault.NotFound where named, and are otherwise
// internal failures.
type Store interface {
	// Save adds s to owner's list and reports whether it was new: saving a
	// paper already on the list keeps the one entry as it was.
	Save(ctx context.Context, owner Owner, s Saved) (added bool, err error)
	// List returns owner's list, newest first (then by paper ID); empty, not
	// an error, for an owner with no list.
	List(ctx context.Context, owner Owner) ([]Saved, error)
	// SetRead marks a saved paper read or unread. fault.NotFound.
	SetRead(ctx context.Context, owner Owner, paperID string, read bool) error
	// Remove takes a paper off owner's list. fault.NotFound.
	Remove(ctx context.Context, owner Owner, paperID string) error

	// SetVote records v, replacing the user's earlier vote on that paper in
	// that channel.
	SetVote(ctx context.Context, v Vote) error
	// ClearVote removes a user's vote on a paper in a channel; no vote is no error.
	ClearVote(ctx context.Context, channel, user, paperID string) error
	// VoteOf is a user's vote on a paper in a channel: Up, Down or 0.
	VoteOf(ctx context.Context, channel, user, paperID string) (int, error)
	// Votes lists every vote in a channel, oldest first.
	Votes(ctx context.Context, channel string) ([]Vote, error)

	// Forget deletes user's votes and personal list, and their name from the
	// channel-list entries they saved. It returns how many votes and saved
	// papers of theirs were deleted.
	Forget(ctx context.Context, user string) (votes, saved int, err error)
}
