package eval

import (
	"context"
)

// SimilarReport measures "papers like this one" with a benchmark's own
// judgments: two documents are related when one of the split's queries
// judges both relevant (in the ICLR keywords benchmark, when their authors
// listed a keyword in common). Precision is the share of the first ten
// papers like a document that are related to it, over every document that
// has a related one; the baseline asks plain BM25 for the document's whole
// title and text.
type SimilarReport struct {
	Papers   int     `json:"papers"`
	Paperbot float64 `json:"paperbot_precision@10"`
	Baseline float64 `json:"baseline_precision@10"`
}

// RunSimilar measures Index.Similar on b beside the plain baseline.
func RunSimilar(ctx context.Context, b *Benchmark, opts Options) (*SimilarReport, error) {
	ix, base, closeBoth, err := openBoth(ctx, b, opts)
	if err != nil {
		return nil, err
	}
	defer closeBoth()

	judged := map[string]map[string]bool{} // document -> the queries judging it relevant
	for _, q := range b.Queries {
		if len(q.Relevant) < 2 {
			continue // relates no two documents
		}
		for d := range q.Relevant {
			if judged[d] == nil {
				judged[d] = map[string]bool{}
			}
			judged[d][q.ID] = true
		}
	}
	related := func(a, d string) bool {
		for q := range judged[d] {
			if judged[a][q] {
				return true
			}
		}
		return false
	}
	precision := func(doc string, ids []string) float64 {
		n, hit := 0, 0
		for _, id := range ids {
			if id == doc || n == pageSize {
				continue
			}
			n++
			if related(doc, id) {
				hit++
			}
		}
		return float64(hit) / pageSize
	}
	r := &SimilarReport{}
	paperOf := map[string]string{}
	for pid, did := range b.DocOf {
		paperOf[did] = pid
	}
	for _, d := range b.Docs {
		pid, ok := paperOf[d.ID]
		if !ok || judged[d.ID] == nil {
			continue
		}
		res, err := ix.Similar(ctx, pid, pageSize)
		if err != nil {
			return nil, err
		}
		var ids []string
		for _, x := range res.Results {
			ids = append(ids, b.docsOf(x.ID)...)
		}
		bids, err := base.search(ctx, d.Title+" "+d.Text, pageSize+1)
		if err != nil {
			return nil, err
		}
		r.Papers++
		r.Paperbot += precision(d.ID, ids)
		r.Baseline += precision(d.ID, bids)
	}
	if r.Papers > 0 {
		r.Paperbot /= float64(r.Papers)
		r.Baseline /= float64(r.Papers)
	}
	return r, nil
}
