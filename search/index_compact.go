package search

import (
	"context"
	"fmt"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"
)

// A build leaves many segments (scorch's background merger only keeps
// their number in check), and every query searches every segment.
// compactOpen merges a built index before it goes live, with scorch's own
// merger (ForceMerge), into segments of up to segmentCap papers: one
// segment up to that size, a few above. A merge task joins at most 10
// segments, so it takes a few rounds; merging costs about what writing the
// index did once more, once per build.
//
// The cap bounds a merge's memory: merging reads its input segments
// through memory maps, so the pages of every input (about 3 KB a paper)
// count in the process's resident set until the merge ends. Uncapped, the
// last merge of a million papers held 3 GB of them.

// segmentCap is the most papers merging puts in one segment (see
// mergePlan, compactPlan).
var segmentCap int64 = 100_000

// buildSegmentCap is segmentCap while a build indexes: the merges scorch
// runs in the background then overlap the batches' heap, so they stay
// small, and compactOpen does the large ones once the batches are done.
const buildSegmentCap = 20_000

// compactTarget is the segment count compact stops at for a corpus that
// fits one segment.
const compactTarget = 1

// mergePlan is the scorch configuration of the background merge plan:
// the defaults with segments capped at most papers (a map, since scorch
// saves its configuration as JSON).
func mergePlan(most int64) map[string]any { return map[string]any{"MaxSegmentSize": most} }

// compactPlan merges as far as the cap allows.
func compactPlan() mergeplan.MergePlanOptions {
	p := mergeplan.SingleSegmentMergePlanOptions
	p.MaxSegmentSize = segmentCap
	return p
}

// compactRounds bounds the ForceMerge calls: each joins up to 10
// segments into one, so this is far more than a million papers need.
const compactRounds = 1000

// compactOpen merges the open scorch index into segments of up to
// segmentCap papers and waits until the result is persisted, so a
// reopened index sees it.
//
// Each ForceMerge runs one merge task. A plan of several would merge them
// one after the other but keep every input mapped until the last is done,
// so their pages would all count in the resident set at once: the whole
// index, at the end of a large build.
func compactOpen(ctx context.Context, bi bleve.Index) error {
	adv, err := bi.Advanced()
	if err != nil {
		return err
	}
	s, ok := adv.(*scorch.Scorch)
	if !ok {
		return fmt.Errorf("index type %T cannot be compacted", adv)
	}
	// A build's last batches may still be in memory (unsafe_batch): the
	// merger merges only persisted segments.
	if err := waitPersisted(ctx, s); err != nil {
		return err
	}
	for range compactRounds {
		n := SegmentCount(bi)
		small, err := mergeable(s)
		if err != nil {
			return err
		}
		if n <= compactTarget || small < 2 {
			break
		}
		plan := compactPlan()
		// The planner adds tasks while the segments outnumber this budget:
		// one fewer than the mergeable ones stops it after the first.
		plan.CalcBudget = func(int64, int64, *mergeplan.MergePlanOptions) int { return small - 1 }
		if err := s.ForceMerge(ctx, &plan); err != nil {
			return fmt.Errorf("merge segments: %w", err)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := waitPersisted(ctx, s); err != nil {
			return err
		}
		if SegmentCount(bi) >= n {
			break // no progress: leave the rest to the background merger
		}
	}
	return waitPersisted(ctx, s)
}

// mergeable counts the segments compactPlan may still merge: those under
// half the cap (mergeplan's rule).
func mergeable(s *scorch.Scorch) (int, error) {
	r, err := s.Reader()
	if err != nil {
		return 0, err
	}
	defer r.Close()
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		return 0, fmt.Errorf("index reader type %T", r)
	}
	n := 0
	for _, seg := range snap.Segments() {
		if seg.LiveSize() < segmentCap/2 {
			n++
		}
	}
	return n, nil
}

// waitPersisted waits until scorch's persister has written the current
// root, which the merges above replaced: closing before that would reopen
// the unmerged segments.
func waitPersisted(ctx context.Context, s *scorch.Scorch) error {
	deadline := time.Now().Add(time.Minute)
	for {
		m := s.StatsMap()
		root, _ := m["CurRootEpoch"].(uint64)
		persisted, _ := m["LastPersistedEpoch"].(uint64)
		if persisted >= root {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("merged segments not persisted after a minute")
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
}
