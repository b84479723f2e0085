package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/paperbot/paperbot/search/corpus"
	"github.com/paperbot/paperbot/search/query"
)

// Batch is a set of changes to an index, applied at once by Index.Apply.
// The index does not remember who added a paper: a later Reload (or Open)
// from a corpus makes the index hold exactly that corpus, so papers added
// by batches that the corpus lacks are removed then.
type Batch struct {
	// Upsert adds papers, or replaces the paper of the same ID (an update:
	// the ID stays, the text is new). Papers need an ID and an abstract.
	// FirstSeen is set to now when a paper is added with it zero, and kept
	// from the indexed version when a paper is replaced.
	Upsert []Paper
	// Delete removes papers by ID; IDs the index lacks are counted in
	// Applied.Missing, not an error.
	Delete []string
}

// Applied says what a Batch changed.
type Applied struct {
	Added, Updated, Deleted int
	// Unchanged counts upserts identical to the indexed paper (nothing was
	// written for them); Missing counts deletes of unknown IDs.
	Unchanged, Missing int
}

// maxPaperID bounds the length of an ID given to Apply.
const maxPaperID = 64

// Apply adds, replaces and deletes papers in the live index, touching only
// those papers. It is safe to call while searches run: they see the index
// before or after the batch, never part of it, and so does a process that
// reopens the index after a crash (the papers, their records and the
// index-time data are written in one bleve batch). Batches are applied one
// at a time, as are Reload and Apply. A bad batch (a paper without ID or
// abstract, an ID twice) is an error of kind Invalid and changes nothing.
func (ix *Index) Apply(ctx context.Context, b Batch) (Applied, error) {
	cur, done, err := ix.changing()
	if err != nil {
		return Applied{}, err
	}
	defer done()
	ups, err := checkBatch(b)
	if err != nil {
		return Applied{}, err
	}
	man, err := cur.manifest()
	if err != nil {
		return Applied{}, &Error{Op: opApply, Kind: Internal, Err: err}
	}
	var ch changes
	for _, p := range ups {
		e, ok := man.find(p.ID)
		switch {
		case !ok:
			ch.added++
		case e.Content == corpus.ContentHash(&p):
			ch.unchanged++
			continue
		default:
			ch.updated++
		}
		ch.upsert = append(ch.upsert, p)
	}
	for _, id := range b.Delete {
		if _, ok := man.find(id); ok {
			ch.del = append(ch.del, id)
		} else {
			ch.missing++
		}
	}
	res := Applied{Added: ch.added, Updated: ch.updated, Deleted: len(ch.del), Unchanged: ch.unchanged, Missing: ch.missing}
	if len(ch.upsert) == 0 && len(ch.del) == 0 {
		return res, nil
	}
	st, err := applyChanges(ctx, cur, man, ch, nil, nil)
	if err != nil {
		return Applied{}, err
	}
	return res, ix.swap(st, false)
}

const opApply = "apply changes"

// checkBatch validates b and returns its upserts ready to index (headline
// and lists filled in as a load would).
func checkBatch(b Batch) ([]Paper, error) {
	bad := func(format string, args ...any) error { return invalidf(opApply, format, args...) }
	seen := make(map[string]bool, len(b.Upsert)+len(b.Delete))
	checkID := func(id string) error {
		switch {
		case id == "":
			return bad("a paper has no ID")
		case len(id) > maxPaperID || strings.IndexFunc(id, unicode.IsSpace) >= 0:
			return bad("%q is not a paper ID: at most %d characters, no spaces", query.Excerpt(id), maxPaperID)
		case seen[id]:
			return bad("the batch names paper %q twice", id)
		}
		seen[id] = true
		return nil
	}
	ups := make([]Paper, len(b.Upsert))
	for i, p := range b.Upsert {
		if err := checkID(p.ID); err != nil {
			return nil, err
		}
		if strings.TrimSpace(p.Abstract) == "" && strings.TrimSpace(p.Title) == "" {
			return nil, bad("paper %q has neither title nor abstract", p.ID)
		}
		if p.Headline == "" {
			p.Headline = corpus.Headline(p.Title, p.Abstract)
		}
		if p.Authors == nil {
			p.Authors = []string{}
		}
		if p.CodeURLs == nil {
			p.CodeURLs = []string{}
		}
		ups[i] = p
	}
	for _, id := range b.Delete {
		if err := checkID(id); err != nil {
			return nil, err
		}
	}
	return ups, nil
}

// changes are the papers one batch writes: upsert are new or changed,
// del are indexed.
type changes struct {
	upsert                             []Paper
	del                                []string
	added, updated, unchanged, missing int
}

// inPlaceLimit is the most changes applyCorpus makes in place (one batch):
// more, or more than half the papers, and a new index is built beside.
const inPlaceLimit = 20000

// applyCorpus changes the live index st into the index of c in place when
// c differs by a few papers; (nil, nil) when it differs by too many.
func applyCorpus(ctx context.Context, st *state, c Papers, man manifest, opts Options) (*state, error) {
	live, err := st.manifest()
	if err != nil {
		return nil, nil // a lost or damaged manifest: build anew
	}
	var ch changes
	for _, e := range live {
		if _, ok := man.find(e.ID); !ok {
			ch.del = append(ch.del, e.ID)
		}
	}
	limit := min(inPlaceLimit, max(len(live), 1000)/2)
	tooMany := errors.New("too many changes")
	err = c.Each(func(p *Paper) error {
		if e, ok := live.find(p.ID); ok && e.Content == corpus.ContentHash(p) {
			return nil
		}
		if len(ch.upsert)+len(ch.del) >= limit {
			return tooMany // stop reading: a new index is built instead
		}
		ch.upsert = append(ch.upsert, *p)
		return nil
	})
	if errors.Is(err, tooMany) || len(ch.upsert)+len(ch.del) > limit {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	n := len(ch.upsert) + len(ch.del)
	if opts.Progress != nil {
		opts.Progress(0, n)
	}
	skipped := c.Report().Skipped
	next, err := applyChanges(ctx, st, live, ch, &skipped, opts.Source)
	if err == nil && opts.Progress != nil {
		opts.Progress(n, n)
	}
	return next, err
}

// applyChanges writes ch to st's index in one batch with the updated
// index-time data, and returns the state that serves the result. skipped
// and source, when set, replace those of the metadata.
func applyChanges(ctx context.Context, st *state, man manifest, ch changes, skipped *int, source []byte) (*state, error) {
	fail := func(err error) (*state, error) { return nil, &Error{Op: opApply, Kind: Internal, Err: err} }
	gramDF := maps.Clone(st.stats.gramDF)
	mb := newMetaBuilder(st.an, st.meta, gramDF)
	b := st.bi.NewBatch()
	now := time.Now().UTC()
	set := make([]manifestEntry, 0, len(ch.upsert))
	for i := range ch.upsert {
		p := ch.upsert[i]
		if _, ok := man.find(p.ID); ok {
			old, err := st.stored(p.ID)
			if err != nil {
				return fail(err)
			}
			p.FirstSeen = old.FirstSeen
			mb.add(&old.Paper, -1, false)
		}
		if p.FirstSeen.IsZero() {
			p.FirstSeen = now
		}
		mb.add(&p, 1, mb.meta.Sample.Sampled < statsSample)
		if err := indexPaper(b, &p); err != nil {
			return fail(err)
		}
		set = append(set, entryOf(&p))
	}
	for _, id := range ch.del {
		old, err := st.stored(id)
		if err != nil {
			return fail(err)
		}
		mb.add(&old.Paper, -1, false)
		b.Delete(id)
	}
	next := man.with(set, ch.del)
	pv, err := st.changedVectors(ctx, ch)
	if err != nil {
		return fail(err)
	}
	m := mb.finish()
	m.Hash, m.Papers = next.hash(), len(next)
	if skipped != nil {
		m.Skipped = *skipped
	}
	if source != nil {
		m.Source = source
	}
	file, vecFile, err := setMeta(b, m, gramDF, next, st.dir, pv)
	if err == nil {
		err = ctx.Err()
		if err != nil {
			err = &Error{Op: opApply, Kind: Internal, Msg: "the update was interrupted", Err: err}
		}
	}
	if err == nil {
		if err = st.bi.Batch(b); err != nil {
			err = fmt.Errorf("index batch: %w", err)
		}
	}
	if err != nil {
		removeManifest(st.dir, file)
		removeManifest(st.dir, vecFile)
		var e *Error
		if errors.As(err, &e) {
			return nil, err
		}
		return fail(err)
	}
	removeManifest(st.dir, st.meta.Manifest) // replaced
	removeManifest(st.dir, st.meta.Vectors)
	ns, err := newState(st.bi, st.dir, true)
	if err != nil {
		return fail(err)
	}
	ns.emb = st.emb
	return ns, nil
}

// changedVectors returns st's meaning vectors after ch: the upserts'
// embedded anew, the deletes' dropped. An embedder that fails (a served
// model down) leaves the upserts without vectors; they are still found by
// their words.
func (st *state) changedVectors(ctx context.Context, ch changes) (*paperVectors, error) {
	if st.emb == nil {
		return st.vecs, nil
	}
	cur := st.vecs
	if cur == nil || cur.model != st.emb.ModelID() {
		cur = newPaperVectors(st.emb.ModelID(), st.emb.Dims(), 0).seal()
	}
	if len(ch.upsert) == 0 && len(ch.del) == 0 {
		return cur, nil
	}
	vb := newVectorBuilder(st.emb, len(ch.upsert))
	del := slices.Clone(ch.del)
	for i := range ch.upsert {
		vb.add(ctx, &ch.upsert[i])
		del = append(del, ch.upsert[i].ID) // its old vector is of its old text
	}
	made := vb.finish(ctx)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return cur.with(made, del), nil
}

// stored reads the indexed version of paper id, bypassing the cache.
func (s *state) stored(id string) (*record, error) {
	b, err := storedRecord(s.bi, id)
	if err != nil {
		return nil, err
	}
	if b == nil {
		return nil, fmt.Errorf("the index lists paper %q but has no record of it", id)
	}
	return decodeRecord(b)
}

// SetSource records source as the live index's Options.Source (see
// SourceUnchanged), changing nothing else.
func (ix *Index) SetSource(ctx context.Context, source []byte) error {
	cur, done, err := ix.changing()
	if err != nil {
		return err
	}
	defer done()
	if err := ctx.Err(); err != nil {
		return &Error{Op: opApply, Kind: Internal, Err: err}
	}
	m := cur.meta
	m.Source = source
	mb, err := json.Marshal(m)
	if err != nil {
		return &Error{Op: opApply, Kind: Internal, Err: err}
	}
	b := cur.bi.NewBatch()
	b.SetInternal([]byte(metaKey), mb)
	if err := cur.bi.Batch(b); err != nil {
		return &Error{Op: opApply, Kind: Internal, Err: err}
	}
	next := *cur // the same index and papers
	next.meta = m
	return ix.swap(&next, false)
}
