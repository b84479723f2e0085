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

// segmentCap is the most papers merging puts in one segment, at build time
// and while serving (see mergePlan).
var segmentCap int64 = 100_000

// compactTarget is the segment count compact stops at for a corpus that
// fits one segment.
const compactTarget = 1

// mergePlan is the scorch configuration of the background merge plan:
// the defaults with segments capped (a map, since scorch saves its
// configuration as JSON).
func mergePlan() map[string]any { return map[string]any{"MaxSegmentSize": segmentCap} }

// compactPlan merges as far as the cap allows.
func compactPlan() mergeplan.MergePlanOptions {
	p := mergeplan.SingleSegmentMergePlanOptions
	p.MaxSegmentSize = segmentCap
	return p
}

// compactRounds bounds the ForceMerge calls: each at least divides the count
// by up to 10, so this is far more than a million papers need.
const compactRounds = 8

// compactOpen merges the open scorch index down to compactTarget segments
// and waits until the result is persisted, so a reopened index sees it.
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
		if n <= compactTarget {
			break
		}
		plan := compactPlan()
		if err := s.ForceMerge(ctx, &plan); err != nil {
			return fmt.Errorf("merge segments: %w", err)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if SegmentCount(bi) >= n {
			break // no progress: leave the rest to the background merger
		}
	}
	return waitPersisted(ctx, s)
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
