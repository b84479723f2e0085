package search

import (
	"fmt"
	"strconv"
)

// Tuning holds the ranking and refusal parameters. The defaults were chosen
// on the SciFact train split (paperbot eval --split train); test is the
// held-out figure. Options.Tuning overrides them, for evaluation only.
type Tuning struct {
	// Grams weighs the character 3-gram run against the word run.
	Grams float64
	// Rerank is how many of bleve's best hits are re-scored exactly.
	Rerank int
	// Refuse: below this confidence the search says nothing is relevant.
	Refuse float64
	// Domain weighs the query's domain fit (how typical of the corpus its
	// words are, against general English: refuse_domain.go) into the
	// confidence. Domain and Refuse are fitted together by
	// paperbot eval --split train --fit-refusal. Since bleve ranks with
	// the lengths newRankStats gives it, the fit prints domain 0.06 and
	// refuse 0.20: 4 of 809 train claims refused instead of 2, SciFact
	// claims asked of the ML papers 0.885 instead of 0.836. Held out, it
	// refused 5 of 300 test claims (the product's bar is 3), so the
	// defaults stay.
	Domain float64
	// AnswerCues picks answer sentences with the earlier hand-set scorer
	// (query coverage, AnswerCue times a finding cue, AnswerLate times the
	// position) instead of the fitted one, to compare the two.
	AnswerCues            bool
	AnswerCue, AnswerLate float64
	// Short is the most word groups a query may have to be judged by the
	// short-query rule (a paper must cover most of it).
	Short int
	// ShortCover is the share of a short query some best paper must cover.
	ShortCover float64
	// Prox weighs the BM25 of query word pairs found next to each other
	// (rank_bm25.go's pairScore). Swept on the train splits (eval --set
	// prox=P): 0.3 is the highest that refuses no more answerable train
	// queries; ICLR keywords 0.556 -> 0.566, SciFact 0.712 -> 0.713.
	Prox float64
	// ShortPartial is the confidence a short query needs when its best
	// paper lacks one of its words ("federated optimization" answered by
	// a paper on optimizing citizen participation).
	ShortPartial float64
	// Near: a short query typed as one phrase ("model merging") is refused
	// when none of the re-ranked papers has its words within Near bytes of
	// each other, in one title or one stretch of abstract: papers that
	// have them far apart ("a conceptual model ... merging the levels")
	// are about something else; only below NearBelow confidence. 0 turns
	// it off. Swept on the train splits (eval --set near=N --set
	// near-below=C): at 25 bytes, 0.5 is the highest that refuses no
	// answerable train query whose first paper is relevant; ICLR keywords
	// asked of SciFact refused 1426 -> 1517 of 3046, answerable 62 -> 66.
	Near      int
	NearBelow float64
	// Distinct and DistinctFloor: in a small corpus a query whose first
	// paper scores at least Distinct times the second, with at least
	// DistinctFloor confidence, singles that paper out and is not refused
	// for low confidence (singledOut). 0 turns it off.
	Distinct, DistinctFloor float64
	// Meaning weighs a paper's cosine with the query in the sentence
	// model's space (meaning.go) against its word rank, relative to the
	// best word rank; 0 ranks on words alone. 0 for the embedded static
	// model: on train (tools/semantic/fit_meaning.py) 0.8 gained SciFact
	// +0.004 and the lab queries +0.009 nDCG@10, but put papers on
	// "clipping" first for CLIP and on conformers for conformal prediction.
	Meaning float64
	// MeaningDepth is how many papers nearest in meaning join the
	// candidates of an unfiltered query, those at least MeaningKeep close.
	MeaningDepth int
	MeaningKeep  float64
	// MeaningConf weighs the best shown paper's cosine, less
	// MeaningCenter, into the confidence. 0 for the static model: with the
	// threshold refitted to refuse at most 2 of 809 SciFact train claims,
	// every weight tried refused fewer off-domain train queries (claims
	// asked of the ML papers 0.836 at 0, 0.806 at 0.2, 0.776 at 0.3).
	MeaningConf, MeaningCenter float64
	// MeaningNorm, when not 0, fuses each candidate's cosine rescaled to
	// the candidates' own range (0 the lowest, 1 the highest) instead of
	// the raw cosine (cosRange).
	MeaningNorm float64
}

// DefaultTuning returns the parameters paperbot ships with.
func DefaultTuning() Tuning {
	return Tuning{Grams: 0.2, Rerank: 30, Refuse: 0.17, Domain: 0.04, AnswerCue: 0.2, AnswerLate: 0.3, Prox: 0.3, Short: 3, ShortCover: shortQueryCoverage, ShortPartial: shortPartialConfidence,
		Distinct: 2, DistinctFloor: 0.1, Near: 25, NearBelow: 0.5,
		Meaning: 0, MeaningDepth: 30, MeaningKeep: 0.5, MeaningConf: 0, MeaningCenter: 0.4}
}

// ServedTuning returns the parameters for a model the caller serves
// (Options.Embedder): DefaultTuning with the cosine weighed into the rank,
// measured against the candidates' spread (MeaningNorm), so the weight
// holds for models whose cosines spread differently. Fitted on SciFact
// train with two models served on loopback (tools/semantic/serve.py;
// eval --embeddings-url … --set meaning=W --set meaning-norm=N), nDCG@10
// against 0.716 on words alone, all-MiniLM-L6-v2 / multilingual-e5-small:
// raw cosine, W 0.5: 0.731 / 0.722 (e5 needs W 8 for 0.744); spread,
// W 0.25: 0.732 / 0.735, W 0.5: 0.740 / 0.743, W 0.75: 0.742 / 0.744.
// 0.5 refuses 4 / 2 of 809 claims (words alone 2), 0.75 4 / 3.
func ServedTuning() Tuning {
	t := DefaultTuning()
	t.Meaning = 0.5
	t.MeaningNorm = 1
	return t
}

// tuningParams are the parameters Set changes, by name, in the order
// TuningNames lists them.
var tuningParams = []struct {
	name string
	set  func(t *Tuning, f float64)
}{
	{"grams", func(t *Tuning, f float64) { t.Grams = f }},
	{"prox", func(t *Tuning, f float64) { t.Prox = f }},
	{"rerank", func(t *Tuning, f float64) { t.Rerank = int(f) }},
	{"refuse", func(t *Tuning, f float64) { t.Refuse = f }},
	{"domain", func(t *Tuning, f float64) { t.Domain = f }},
	{"short", func(t *Tuning, f float64) { t.Short = int(f) }},
	{"short-cover", func(t *Tuning, f float64) { t.ShortCover = f }},
	{"short-partial", func(t *Tuning, f float64) { t.ShortPartial = f }},
	{"near", func(t *Tuning, f float64) { t.Near = int(f) }},
	{"near-below", func(t *Tuning, f float64) { t.NearBelow = f }},
	{"distinct", func(t *Tuning, f float64) { t.Distinct = f }},
	{"distinct-floor", func(t *Tuning, f float64) { t.DistinctFloor = f }},
	{"answer-cues", func(t *Tuning, f float64) { t.AnswerCues = f != 0 }},
	{"answer-cue", func(t *Tuning, f float64) { t.AnswerCue = f }},
	{"answer-late", func(t *Tuning, f float64) { t.AnswerLate = f }},
	{"meaning", func(t *Tuning, f float64) { t.Meaning = f }},
	{"meaning-depth", func(t *Tuning, f float64) { t.MeaningDepth = int(f) }},
	{"meaning-keep", func(t *Tuning, f float64) { t.MeaningKeep = f }},
	{"meaning-conf", func(t *Tuning, f float64) { t.MeaningConf = f }},
	{"meaning-center", func(t *Tuning, f float64) { t.MeaningCenter = f }},
	{"meaning-norm", func(t *Tuning, f float64) { t.MeaningNorm = f }},
}

// TuningNames lists the parameter names Set takes, for help texts.
func TuningNames() []string {
	names := make([]string, len(tuningParams))
	for i, p := range tuningParams {
		names[i] = p.name
	}
	return names
}

// Set changes one parameter by name, for command-line sweeps.
func (t *Tuning) Set(name, value string) error {
	f, err := strconv.ParseFloat(value, 64)
	if err != nil {
		return fmt.Errorf("tuning %s=%q: not a number", name, value)
	}
	for _, p := range tuningParams {
		if p.name == name {
			p.set(t, f)
			return nil
		}
	}
	return fmt.Errorf("tuning: no parameter %q", name)
}
