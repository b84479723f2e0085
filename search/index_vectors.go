package search

import (
	"context"
	"encoding/json"
	"fmt"
)

// MissingVectors counts the live papers without a meaning vector from the
// index's Embedder: those indexed while a served model was down. It is 0
// for an index built on words alone.
func (ix *Index) MissingVectors() int {
	st, release, err := ix.live()
	if err != nil {
		return 0
	}
	defer release()
	emb := ix.opts.Embedder
	if emb == nil {
		return 0
	}
	if st.vecs == nil || st.vecs.model != emb.ModelID() {
		return st.meta.Papers
	}
	return max(0, st.meta.Papers-st.vecs.len())
}

const opFill = "fill paper vectors"

// FillVectors embeds the live papers that lack a vector, a batch at a
// time, and records them beside the index; it returns how many it added.
// It fails, adding none, when the Embedder fails (a served model still
// down). Searches go on meanwhile; a change of the index waits for it.
func (ix *Index) FillVectors(ctx context.Context) (int, error) {
	emb := ix.opts.Embedder
	if emb == nil {
		return 0, nil
	}
	cur, done, err := ix.changing()
	if err != nil {
		return 0, err
	}
	defer done()
	if emb.Dims() <= 0 {
		// A served model not reached yet: one text tells its size.
		if _, err := emb.Embed(ctx, []string{"paperbot"}); err != nil {
			return 0, &Error{Op: opFill, Kind: Internal, Msg: "the embeddings server cannot be reached", Err: err}
		}
	}
	man, err := cur.manifest()
	if err != nil {
		return 0, &Error{Op: opFill, Kind: Internal, Err: err}
	}
	have := cur.vecs
	if have == nil || have.model != emb.ModelID() || have.dims != emb.Dims() {
		have = newPaperVectors(emb.ModelID(), emb.Dims(), 0).seal()
	}
	var missing []string
	for _, e := range man {
		if _, ok := have.pos(e.ID); !ok {
			missing = append(missing, e.ID)
		}
	}
	if len(missing) == 0 && have == cur.vecs {
		return 0, nil
	}
	vb := newVectorBuilder(emb, len(missing))
	for _, id := range missing {
		r, err := cur.stored(id)
		if err != nil {
			return 0, &Error{Op: opFill, Kind: Internal, Err: err}
		}
		vb.add(ctx, &r.Paper)
	}
	made := vb.finish(ctx)
	if err := vb.failure(); err != nil {
		return 0, &Error{Op: opFill, Kind: Internal, Msg: "the embeddings server failed", Err: err}
	}
	next := *cur
	next.vecs = have.with(made, nil)
	if err := next.writeVectorsMeta(); err != nil {
		return 0, err
	}
	removeManifest(cur.dir, cur.meta.Vectors) // replaced
	return made.len(), ix.swap(&next, false)
}

// writeVectorsMeta records s.vecs in s's index: a new file named in the
// meta on disk, the internal storage in memory.
func (s *state) writeVectorsMeta() error {
	fail := func(err error) error { return &Error{Op: opFill, Kind: Internal, Err: err} }
	b := s.bi.NewBatch()
	s.meta.Vectors = ""
	if s.dir != "" {
		name, err := writeVectors(s.dir, s.vecs)
		if err != nil {
			return fail(err)
		}
		s.meta.Vectors = name
	} else {
		b.SetInternal([]byte(vectorsKey), s.vecs.encode())
	}
	mb, err := json.Marshal(s.meta)
	if err != nil {
		return fail(err)
	}
	b.SetInternal([]byte(metaKey), mb)
	if err := s.bi.Batch(b); err != nil {
		removeManifest(s.dir, s.meta.Vectors)
		return fail(fmt.Errorf("index batch: %w", err))
	}
	return nil
}
