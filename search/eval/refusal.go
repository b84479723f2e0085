package eval

import (
	"context"

	"github.com/paperbot/paperbot/search"
)

// Refusal is how paperbot answers queries nothing in a corpus is relevant to
// (claims about medicine asked of machine-learning papers, or the reverse):
// every "nothing relevant" is right, every list of papers is wrong.
type Refusal struct {
	Name    string  `json:"name"`
	Queries int     `json:"queries"`
	Refused int     `json:"refused"`
	Share   float64 `json:"share_refused"`
	// PerQuery has one line per query: what a user would have been shown.
	PerQuery []RefusalQuery `json:"per_query,omitempty"`
	// refuse is the threshold the queries were asked with.
	refuse float64
}

// CurveConfidences returns each query's confidence as the trade-off curve
// counts it (CurveConfidence).
func (r *Refusal) CurveConfidences() []float64 {
	out := make([]float64, len(r.PerQuery))
	for i, q := range r.PerQuery {
		out[i] = CurveConfidence(q.NoMatch, q.Confidence, r.refuse)
	}
	return out
}

// RefusalQuery is one off-domain query's outcome: Top holds the titles of
// the closest papers, which a wrong answer would have shown as relevant.
type RefusalQuery struct {
	Text       string   `json:"text"`
	NoMatch    bool     `json:"no_match"`
	Confidence float64  `json:"confidence"`
	Meaning    float64  `json:"meaning,omitempty"`
	Top        []string `json:"top,omitempty"`
	Error      string   `json:"error,omitempty"`
}

// RunRefusal asks queries of corpus and counts the refusals. A query the
// parser rejects counts as refused: the user is shown no papers.
func RunRefusal(ctx context.Context, name string, c search.Papers, queries []string, opts Options) (*Refusal, error) {
	ix, err := search.Open(ctx, c, opts.Search)
	if err != nil {
		return nil, err
	}
	defer ix.Close()
	r := &Refusal{Name: name, Queries: len(queries), refuse: tuningOf(opts).Refuse}
	for _, q := range queries {
		res, err := ask(ctx, ix, q, pageSize)
		if err != nil {
			if search.KindOf(err) != search.Invalid {
				return nil, err
			}
			r.Refused++
			r.PerQuery = append(r.PerQuery, RefusalQuery{Text: q, NoMatch: true, Error: err.Error()})
			continue
		}
		if res.NoMatch {
			r.Refused++
		}
		line := RefusalQuery{Text: q, NoMatch: res.NoMatch, Confidence: res.Confidence, Meaning: bestMeaning(res)}
		for _, p := range res.Results[:min(len(res.Results), 3)] {
			line.Top = append(line.Top, p.Title)
		}
		r.PerQuery = append(r.PerQuery, line)
	}
	if r.Queries > 0 {
		r.Share = float64(r.Refused) / float64(r.Queries)
	}
	return r, nil
}

// CurveConfidence is a query's confidence as the refusal curve counts it:
// Results.Confidence, or 0 when the search refused it for another reason
// than the threshold refuse (the short-query rule), since no threshold
// would answer it.
func CurveConfidence(noMatch bool, confidence, refuse float64) float64 {
	if noMatch && confidence >= refuse {
		return 0
	}
	return confidence
}

// QueryTexts returns the texts of b's queries.
func (b *Benchmark) QueryTexts() []string {
	out := make([]string, len(b.Queries))
	for i, q := range b.Queries {
		out[i] = q.Text
	}
	return out
}

// CurvePoint is one threshold of the refusal trade-off: answerable queries
// it would refuse, and the share of off-domain queries it would refuse.
type CurvePoint struct {
	Threshold     float64 `json:"threshold"`
	FalseRefusals int     `json:"false_refusals"`
	OffRefused    float64 `json:"off_domain_refused"`
}

// Curve sweeps the confidence threshold over answerable and off-domain
// confidences (confidence < threshold means refused).
func Curve(answerable, offDomain []float64, steps int) []CurvePoint {
	var out []CurvePoint
	for i := 0; i <= steps; i++ {
		t := float64(i) / float64(steps)
		p := CurvePoint{Threshold: t, FalseRefusals: countBelow(answerable, t)}
		if len(offDomain) > 0 {
			p.OffRefused = float64(countBelow(offDomain, t)) / float64(len(offDomain))
		}
		out = append(out, p)
	}
	return out
}

// FitThreshold returns the highest threshold, on a grid of steps, that
// refuses at most maxShare of the answerable queries: the operating point
// that keeps false refusals rare, fitted on a training split.
func FitThreshold(answerable []float64, maxShare float64, steps int) float64 {
	best := 0.0
	for _, p := range Curve(answerable, nil, steps) {
		if float64(p.FalseRefusals) <= maxShare*float64(len(answerable)) {
			best = p.Threshold
		}
	}
	return best
}

// countBelow counts the confidences a threshold t refuses (those below it).
func countBelow(confidences []float64, t float64) int {
	n := 0
	for _, c := range confidences {
		if c < t {
			n++
		}
	}
	return n
}
