package bot

import (
	"context"

	"github.com/paperbot/paperbot/search"
)

// PaperFinder finds a paper the index lacks by its link (arXiv, OpenReview),
// so a pasted link still unfolds. The paper is shown, never indexed.
// Implementations must be safe for concurrent use; a link no source knows
// is an error of kind search.NotFound (fault.NotFound), an unreachable
// source any other error.
type PaperFinder interface {
	FindPaper(ctx context.Context, link string) (search.Paper, error)
}

// WithPaperFinder looks up pasted links to papers the index lacks in f.
func WithPaperFinder(f PaperFinder) Option {
	return func(o *options) { o.finder = f }
}
