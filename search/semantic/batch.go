package semantic

import (
	"context"
	"fmt"
)

// EmbedAll embeds texts through e in batches of batch texts (all at once
// if batch <= 0), calling progress (if not nil) with the texts done and
// the total after each batch, for a build's progress bar. On an error it
// returns the vectors of the batches done so far (nil for the rest) with
// the error, so a build can keep them and fill the rest in later.
func EmbedAll(ctx context.Context, e Embedder, texts []string, batch int, progress func(done, total int)) ([][]float32, error) {
	if batch <= 0 {
		batch = max(1, len(texts))
	}
	out := make([][]float32, len(texts))
	for lo := 0; lo < len(texts); lo += batch {
		hi := min(len(texts), lo+batch)
		vecs, err := e.Embed(ctx, texts[lo:hi])
		if err != nil {
			return out, err
		}
		if len(vecs) != hi-lo {
			return out, fmt.Errorf("semantic: %s returned %d vectors for %d texts", e.ModelID(), len(vecs), hi-lo)
		}
		copy(out[lo:], vecs)
		if progress != nil {
			progress(hi, len(texts))
		}
	}
	return out, nil
}
