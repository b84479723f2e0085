package eval

import (
	"context"

	"github.com/paperbot/paperbot/search"
)

// QuerySet is queries to ask of a corpus.
type QuerySet struct {
	Name    string
	Corpus  *search.Corpus
	Queries []string
}

// RefusalFit is the refusal fitted for one domain weight
// (search.Tuning.Domain): the highest confidence threshold that keeps false
// refusals of the answerable queries within the allowed share, and the
// share of each off-domain set it then refuses.
type RefusalFit struct {
	Domain        float64   `json:"domain"`
	Threshold     float64   `json:"threshold"`
	FalseRefusals int       `json:"false_refusals"`
	OffRefused    []float64 `json:"off_domain_refused"`
	// Mean is the mean of OffRefused, which picks the weight.
	Mean float64 `json:"mean_off_domain_refused"`
}

// FitRefusal asks answerable (every query has a relevant paper) and the
// off-domain sets (none has) once per domain weight, fits each weight's
// threshold as FitThreshold does, and returns one line per weight and the
// index of the one that refuses most off-domain queries on average (ties
// go to the smaller weight).
func FitRefusal(ctx context.Context, answerable QuerySet, off []QuerySet, weights []float64, maxShare float64, steps int, opts Options) ([]RefusalFit, int, error) {
	var out []RefusalFit
	best := -1
	for _, w := range weights {
		t := tuningOf(opts)
		t.Domain = w
		// Only the short-query rule refuses during the sweep: the curve
		// then counts what the threshold adds.
		t.Refuse = 0
		o := opts
		o.Search.Tuning = &t
		ans, err := RunRefusal(ctx, answerable.Name, answerable.Corpus, answerable.Queries, o)
		if err != nil {
			return nil, 0, err
		}
		conf := ans.CurveConfidences()
		f := RefusalFit{Domain: w, Threshold: FitThreshold(conf, maxShare, steps)}
		f.FalseRefusals = countBelow(conf, f.Threshold)
		for _, s := range off {
			r, err := RunRefusal(ctx, s.Name, s.Corpus, s.Queries, o)
			if err != nil {
				return nil, 0, err
			}
			share := float64(countBelow(r.CurveConfidences(), f.Threshold)) / float64(max(1, len(r.PerQuery)))
			f.OffRefused = append(f.OffRefused, share)
			f.Mean += share / float64(len(off))
		}
		out = append(out, f)
		if best < 0 || f.Mean > out[best].Mean+1e-9 {
			best = len(out) - 1
		}
	}
	return out, best, nil
}
