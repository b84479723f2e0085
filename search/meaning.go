package search

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/paperbot/paperbot/search/query"
	"github.com/paperbot/paperbot/search/semantic"
)

// The meaning stage: each paper has a vector from a sentence model
// (semantic.Embedder), kept beside the index (vectors.go). A query's vector
// brings the papers closest in meaning into the candidates, even those that
// share no word with it, and its cosine with each candidate joins the word
// score in the final rank and the confidence. Every weight is in Tuning,
// fitted on train splits (paperbot eval --split train --set meaning=…).

// embeddedModel is the static model built into the binary, loaded once
// (read-only, shared by every index of the process).
var embeddedModel = sync.OnceValues(func() (semantic.Embedder, error) {
	m, err := semantic.Embedded()
	if err != nil {
		return nil, err // not a typed nil inside the interface
	}
	return m, nil
})

// embedderOf is the Embedder opts asks for: nil when the index is to be
// built on words alone.
func embedderOf(opts Options) (semantic.Embedder, error) {
	switch {
	case opts.NoMeaning:
		return nil, nil
	case opts.Embedder != nil:
		return opts.Embedder, nil
	}
	return embeddedModel()
}

// paperText is what a paper's vector is made of.
func paperText(p *Paper) string {
	if p.Title == "" {
		return p.Abstract
	}
	return p.Title + ". " + p.Abstract
}

// queryEmbedTimeout bounds the wait for a query's vector (a served model
// slow or down): past it the words answer alone.
const queryEmbedTimeout = 2 * time.Second

// vectorBatch is how many papers are embedded at once while indexing.
const vectorBatch = 256

// vectorBuilder embeds papers as they are indexed, a batch at a time in
// the background (up to vectorWorkers batches at once), so that embedding
// overlaps bleve's analysis. An embedder that fails (a served model down)
// leaves the papers it missed without vectors: they are still found by
// their words, and err says why.
type vectorBuilder struct {
	emb   semantic.Embedder
	ids   []string
	texts []string
	slots chan struct{}
	wg    sync.WaitGroup
	mu    sync.Mutex // guards pv and err
	pv    *paperVectors
	err   error
}

// vectorWorkers is how many batches are embedded at once while indexing.
const vectorWorkers = 2

func newVectorBuilder(emb semantic.Embedder, capacity int) *vectorBuilder {
	if emb == nil || emb.Dims() <= 0 {
		return nil // no embedder, or a served one not reached yet
	}
	return &vectorBuilder{emb: emb, pv: newPaperVectors(emb.ModelID(), emb.Dims(), capacity), slots: make(chan struct{}, vectorWorkers)}
}

func (vb *vectorBuilder) add(ctx context.Context, p *Paper) {
	if vb == nil {
		return
	}
	vb.ids = append(vb.ids, p.ID)
	vb.texts = append(vb.texts, paperText(p))
	if len(vb.ids) == vectorBatch {
		vb.flush(ctx)
	}
}

// flush hands the pending papers to a background embedding.
func (vb *vectorBuilder) flush(ctx context.Context) {
	if vb == nil || len(vb.ids) == 0 {
		return
	}
	ids, texts := vb.ids, vb.texts
	vb.ids, vb.texts = nil, nil
	vb.slots <- struct{}{}
	vb.wg.Go(func() {
		defer func() { <-vb.slots }()
		vb.mu.Lock()
		failed := vb.err != nil
		vb.mu.Unlock()
		if failed {
			return
		}
		vs, err := vb.emb.Embed(ctx, texts)
		if err == nil && len(vs) != len(ids) {
			err = errWrongVectorCount
		}
		vb.mu.Lock()
		defer vb.mu.Unlock()
		if err != nil {
			vb.err = cmp.Or(vb.err, err)
			return
		}
		for i, id := range ids {
			if len(vs[i]) == vb.pv.dims {
				vb.pv.add(id, vs[i])
			}
		}
	})
}

// finish waits for the pending embeddings and returns the vectors (nil
// without an embedder).
func (vb *vectorBuilder) finish(ctx context.Context) *paperVectors {
	if vb == nil {
		return nil
	}
	vb.flush(ctx)
	vb.wg.Wait()
	return vb.pv.seal()
}

// failure is why papers were left without vectors, if any were.
func (vb *vectorBuilder) failure() error {
	if vb == nil {
		return nil
	}
	vb.mu.Lock()
	defer vb.mu.Unlock()
	return vb.err
}

var errWrongVectorCount = &Error{Op: "embed papers", Kind: Internal, Msg: "the model returned another number of vectors than texts"}

// queryVector is the vector of the query's topic words, nil when the live
// vectors cannot be used (none, or made by another model than the live
// Embedder) or the query has no text.
func (s *state) queryVector(ctx context.Context, groups []group) []float32 {
	off := s.tune.Meaning == 0 && s.tune.MeaningDepth == 0 && s.tune.MeaningConf == 0
	if off || s.emb == nil || s.vecs.len() == 0 || s.vecs.model != s.emb.ModelID() {
		return nil
	}
	words := make([]string, 0, len(groups))
	for _, g := range groups {
		// A year, venue, link or author's name says nothing of the topic
		// to a sentence model.
		if !g.isMeta() && !g.link && len(g.names) == 0 {
			words = append(words, g.surface)
		}
	}
	if len(words) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, queryEmbedTimeout)
	defer cancel()
	v, err := embedQuery(ctx, s.emb, strings.Join(words, " "))
	if err != nil || len(v) != s.vecs.dims {
		// A served model down or misconfigured: the words still answer.
		s.meaningFailed(err)
		return nil
	}
	return v
}

// embedQuery is text's vector as a search query: through EmbedQuery for a
// model that embeds queries otherwise than documents, else through Embed.
func embedQuery(ctx context.Context, emb semantic.Embedder, text string) ([]float32, error) {
	if qe, ok := emb.(semantic.QueryEmbedder); ok {
		return qe.EmbedQuery(ctx, text)
	}
	vs, err := emb.Embed(ctx, []string{text})
	if err != nil {
		return nil, err
	}
	if len(vs) != 1 {
		return nil, errWrongVectorCount
	}
	return vs[0], nil
}

// meaningFailed reports a query-time embedding failure to the
// Options.MeaningFailed hook, if any.
func (s *state) meaningFailed(err error) {
	if s.onMeaningFail != nil {
		s.onMeaningFail(err)
	}
}

// hasMeta reports whether a group names a year or venue: the user asked
// for those papers, which meaning alone does not find.
func hasMeta(groups []group) bool {
	return slices.ContainsFunc(groups, func(g group) bool { return g.isMeta() })
}

// withMeaning brings the papers nearest in meaning into cands and, with
// Tuning.Meaning, fuses each re-ranked paper's word rank with its cosine;
// the deeper candidates stay below in their order. Papers found by meaning
// alone join only an unfiltered query (a filter or an exclusion is bleve's
// to apply): with Tuning.Meaning they compete on their cosine, without it
// they come after every paper the words found. need is the number of
// papers the page shows: when the words fill it and meaning can neither
// reorder nor add to it, no vector is looked at.
func (s *state) withMeaning(ctx context.Context, q *query.Parsed, groups []group, mt *matcher, cands []candidate, need int) []candidate {
	fuse := s.tune.Meaning != 0
	if !fuse && s.tune.MeaningConf == 0 && len(cands) >= need {
		return cands
	}
	v := s.queryVector(ctx, groups)
	if v == nil {
		return cands
	}
	qv := quantizeQuery(v)
	n := min(len(cands), max(s.tune.Rerank, 1))
	head := slices.Clone(cands[:n])
	rest := cands[n:]
	for i := range head {
		head[i].cos, head[i].hasCos = s.vecs.cosOf(head[i].doc.ID, qv)
	}
	var nearest []near
	if s.tune.MeaningDepth > 0 && !q.Narrowed() && !hasMeta(groups) {
		nearest = s.vecs.nearest(qv, s.tune.MeaningDepth, nil)
	}
	lo, span := s.cosRange(head, nearest)
	var found []candidate // by meaning alone
	if len(nearest) > 0 {
		have := make(map[string]bool, n)
		for _, c := range head {
			have[c.doc.ID] = true
		}
		moved := map[string]bool{} // found here, so out of rest
		for _, nr := range nearest {
			id := s.vecs.id(nr.i)
			if have[id] || (nr.cos-lo)/span < s.tune.MeaningKeep {
				continue
			}
			r, ok, err := s.record(id)
			if err != nil || !ok {
				continue
			}
			c := candidate{doc: r, byMeaning: true, cos: nr.cos, hasCos: true}
			if fuse {
				s.scoreCandidate(&c, mt, mt.grams)
			}
			found = append(found, c)
			moved[id] = true
		}
		if len(moved) > 0 {
			rest = slices.DeleteFunc(rest, func(c candidate) bool { return moved[c.doc.ID] })
		}
	}
	if !fuse {
		// found is in cosine order already.
		out := append(append(head, rest...), found...)
		for i := len(head) + len(rest); i < len(out); i++ {
			out[i].rank = meaningOnlyTie * out[i].cos
			if i > 0 {
				out[i].rank = min(out[i].rank, out[i-1].rank*0.99)
			}
		}
		return out
	}
	head = append(head, found...)
	top := 0.0
	for _, c := range head {
		top = max(top, c.rank)
	}
	if top <= 0 {
		top = 1
	}
	for i := range head {
		c := &head[i]
		words := c.rank / top
		if c.byMeaning {
			// Its words, if any, were not enough for bleve: it ranks on
			// its cosine.
			words = 0
		}
		c.rank = top * (words + s.tune.Meaning*max(0, (c.cos-lo)/span))
	}
	sortByRank(head)
	out := append(head, rest...)
	rankBelow(out, len(head))
	return out
}

// cosRange is what a cosine is measured from and by, for the fusion
// weight (Tuning.Meaning) and the bar for papers found by meaning alone
// (Tuning.MeaningKeep): 0 and 1, the raw cosine; or, with
// Tuning.MeaningNorm, the lowest cosine of the word candidates and the
// papers nearest in meaning, and their spread. Then a weight and a bar
// mean the same for a model whose cosines all lie between 0.7 and 0.9
// (e5) as for one spread between 0 and 0.7 (MiniLM).
func (s *state) cosRange(head []candidate, nearest []near) (lo, span float64) {
	if s.tune.MeaningNorm == 0 {
		return 0, 1
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, c := range head {
		if c.hasCos {
			lo, hi = min(lo, c.cos), max(hi, c.cos)
		}
	}
	for _, nr := range nearest {
		lo, hi = min(lo, nr.cos), max(hi, nr.cos)
	}
	if hi <= lo {
		return 0, 1
	}
	return lo, hi - lo
}

// meaningOnlyTie gives the papers found by meaning alone, without
// Tuning.Meaning, a rank below the words' that still orders them by cosine.
const meaningOnlyTie = 1e-6

// meaningConfidence is the confidence the query's cosine with its closest
// shown paper adds (Tuning.MeaningConf), or takes away below
// Tuning.MeaningCenter.
func (s *state) meaningConfidence(cands []candidate) float64 {
	if s.tune.MeaningConf == 0 {
		return 0
	}
	best, any := 0.0, false
	for _, c := range cands[:min(len(cands), confidenceDepth)] {
		if c.hasCos {
			best, any = max(best, c.cos), true
		}
	}
	if !any {
		return 0
	}
	return s.tune.MeaningConf * (best - s.tune.MeaningCenter)
}
