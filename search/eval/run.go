package eval

import (
	"context"
	"slices"
	"time"

	"github.com/paperbot/paperbot/search"
)

// Depths of the figures: BEIR's nDCG@10 and MRR@10 are read from the page of
// 10 a user sees; Recall@100 from a deeper, untimed request.
const (
	pageSize    = 10
	recallDepth = 100
	// answerF1 is SciFact's bar for a picked sentence to count as a rationale.
	answerF1 = 0.6
)

// Report holds the figures of one run.
type Report struct {
	Benchmark string `json:"benchmark"`
	Split     string `json:"split"`
	Queries   int    `json:"queries"`
	// Docs counts the benchmark's documents; Copies those paperbot's
	// loader merged into a paper with the same text (ranked with it),
	// Unloaded those it kept out otherwise (neither title nor text, or
	// another's title). The baseline indexes all of them.
	Docs     int     `json:"docs"`
	Copies   int     `json:"docs_merged"`
	Unloaded int     `json:"docs_not_indexed"`
	Paperbot Figures `json:"paperbot"`
	Baseline Figures `json:"baseline"`
	// Words is paperbot ranking on words alone (no sentence model), in
	// the same run; nil when paperbot itself ran on words alone.
	Words *Figures `json:"words_only,omitempty"`
	// Refused counts answerable queries paperbot answered "nothing relevant";
	// RefusedTop1 those of them whose top paper was relevant all the same.
	Refused     int `json:"refused"`
	RefusedTop1 int `json:"refused_top1_relevant"`
	// AnswerJudged counts queries whose top paper is relevant and has
	// rationale sentences; AnswerCorrect those whose answer (else snippet)
	// matches one (token F1 >= 0.6); AnswerGiven those with an answer at all.
	AnswerJudged  int     `json:"answer_judged"`
	AnswerCorrect int     `json:"answer_correct"`
	AnswerGiven   int     `json:"answer_given"`
	AnswerAcc     float64 `json:"answer_accuracy"`
	// AnswerCorrectCues counts the same queries answered right by the
	// earlier hand-set cue scorer (search.Tuning.AnswerCues).
	AnswerCorrectCues int `json:"answer_correct_cues"`
	// P50/P99 are paperbot's query times in milliseconds (page of 10 with
	// snippets and answers).
	P50 float64 `json:"p50_ms"`
	P99 float64 `json:"p99_ms"`
	// PerQuery has one line per query, for --json and for tuning scripts.
	PerQuery []QueryResult `json:"per_query,omitempty"`
}

// Figures are the ranking figures of one system.
type Figures struct {
	NDCG10    float64 `json:"ndcg@10"`
	MRR10     float64 `json:"mrr@10"`
	Recall100 float64 `json:"recall@100"`
}

// QueryResult is one query's outcome.
type QueryResult struct {
	ID         string  `json:"id"`
	Text       string  `json:"text"`
	NDCG10     float64 `json:"ndcg@10"`
	BaseNDCG10 float64 `json:"baseline_ndcg@10"`
	WordsNDCG  float64 `json:"words_ndcg@10,omitempty"`
	NoMatch    bool    `json:"no_match"`
	Confidence float64 `json:"confidence"`
	// Meaning is the best cosine of the first three papers with the query
	// (search.Result.Meaning), for fitting its weight in the confidence.
	Meaning  float64  `json:"meaning,omitempty"`
	Top      []string `json:"top"`
	Answer   string   `json:"answer,omitempty"`
	AnswerOK *bool    `json:"answer_ok,omitempty"`
	Error    string   `json:"error,omitempty"`
}

// Options tune a run.
type Options struct {
	Search search.Options
}

// openBoth indexes b's corpus with paperbot and with the plain baseline;
// closeBoth closes both.
func openBoth(ctx context.Context, b *Benchmark, opts Options) (ix *search.Index, base *baseline, closeBoth func(), err error) {
	ix, err = search.Open(ctx, b.Corpus, opts.Search)
	if err != nil {
		return nil, nil, nil, err
	}
	base, err = newBaseline(b.Docs)
	if err != nil {
		_ = ix.Close()
		return nil, nil, nil, err
	}
	return ix, base, func() { _ = ix.Close(); base.close() }, nil
}

// ask puts text to ix as the bot and the CLI do: text longer than any query
// may be (a pasted paragraph, as ArguAna's arguments are) finds the papers
// like it, anything else is a search.
func ask(ctx context.Context, ix *search.Index, text string, limit int) (*search.Results, error) {
	if search.PastedText(text) {
		return ix.SimilarText(ctx, text, limit)
	}
	return ix.Search(ctx, search.Request{Text: text, Limit: limit})
}

// Run indexes b's corpus with paperbot and with the plain baseline, asks
// every query of both, and scores them. A query paperbot rejects (a syntax
// error) scores 0, as a failed query does in BEIR.
func Run(ctx context.Context, b *Benchmark, opts Options) (*Report, error) {
	ix, base, closeBoth, err := openBoth(ctx, b, opts)
	if err != nil {
		return nil, err
	}
	defer closeBoth()
	var words *search.Index // paperbot on words alone, beside
	if !opts.Search.NoMeaning {
		wo := opts.Search
		wo.NoMeaning = true
		if words, err = search.Open(ctx, b.Corpus, wo); err != nil {
			return nil, err
		}
		defer words.Close()
	}

	r := &Report{Benchmark: b.Name, Split: b.Split, Queries: len(b.Queries), Docs: len(b.Docs), Unloaded: len(b.Unloaded)}
	if words != nil {
		r.Words = &Figures{}
	}
	for _, c := range b.CopiesOf {
		r.Copies += len(c)
	}
	_, cues := search.AnswerWeights(tuningOf(opts))
	var times []float64
	for _, q := range b.Queries {
		qr := QueryResult{ID: q.ID, Text: q.Text}
		t0 := time.Now()
		res, err := ask(ctx, ix, q.Text, pageSize)
		times = append(times, float64(time.Since(t0).Microseconds())/1000)
		var ranked []string
		if err != nil {
			if search.KindOf(err) != search.Invalid {
				return nil, err
			}
			qr.Error = err.Error()
		} else {
			for _, x := range res.Results {
				ranked = append(ranked, b.docsOf(x.ID)...)
			}
			qr.NoMatch, qr.Confidence, qr.Meaning = res.NoMatch, res.Confidence, bestMeaning(res)
			r.scoreAnswer(&qr, q, res, ranked)
			if err := r.scoreCueAnswer(ctx, ix, qr.AnswerOK != nil, q, res, ranked, cues); err != nil {
				return nil, err
			}
			deep, err := ask(ctx, ix, q.Text, recallDepth)
			if err != nil {
				return nil, err
			}
			var deepIDs []string
			for _, x := range deep.Results {
				deepIDs = append(deepIDs, b.docsOf(x.ID)...)
			}
			r.Paperbot.Recall100 += recallAt(recallDepth, deepIDs, q.Relevant)
		}
		qr.Top = ranked[:min(3, len(ranked))]
		qr.NDCG10 = ndcgAt(pageSize, ranked, q.Relevant)
		r.Paperbot.NDCG10 += qr.NDCG10
		r.Paperbot.MRR10 += mrrAt(pageSize, ranked, q.Relevant)
		if qr.NoMatch {
			r.Refused++
			if len(ranked) > 0 && q.Relevant[ranked[0]] > 0 {
				r.RefusedTop1++
			}
		}

		if words != nil {
			if err := r.Words.add(ctx, words, b, q, &qr); err != nil {
				return nil, err
			}
		}
		bids, err := base.search(ctx, q.Text, recallDepth)
		if err != nil {
			return nil, err
		}
		qr.BaseNDCG10 = ndcgAt(pageSize, bids, q.Relevant)
		r.Baseline.NDCG10 += qr.BaseNDCG10
		r.Baseline.MRR10 += mrrAt(pageSize, bids, q.Relevant)
		r.Baseline.Recall100 += recallAt(recallDepth, bids, q.Relevant)
		r.PerQuery = append(r.PerQuery, qr)
	}
	n := float64(max(1, len(b.Queries)))
	for _, f := range []*Figures{&r.Paperbot, &r.Baseline, r.Words} {
		if f == nil {
			continue
		}
		f.NDCG10 /= n
		f.MRR10 /= n
		f.Recall100 /= n
	}
	if r.AnswerJudged > 0 {
		r.AnswerAcc = float64(r.AnswerCorrect) / float64(r.AnswerJudged)
	}
	slices.Sort(times)
	r.P50, r.P99 = percentile(times, 50), percentile(times, 99)
	return r, nil
}

// bestMeaning is the best cosine with the query of res's first three
// papers, those the confidence looks at.
func bestMeaning(res *search.Results) float64 {
	best := 0.0
	for _, r := range res.Results[:min(3, len(res.Results))] {
		best = max(best, r.Meaning)
	}
	return best
}

// add scores query q asked of the words-only index ix into f (sums; Run
// divides).
func (f *Figures) add(ctx context.Context, ix *search.Index, b *Benchmark, q Query, qr *QueryResult) error {
	var ranked, deep []string
	for _, n := range []int{pageSize, recallDepth} {
		res, err := ask(ctx, ix, q.Text, n)
		if err != nil {
			if search.KindOf(err) != search.Invalid {
				return err
			}
			break
		}
		var ids []string
		for _, x := range res.Results {
			ids = append(ids, b.docsOf(x.ID)...)
		}
		if n == pageSize {
			ranked = ids
		} else {
			deep = ids
		}
	}
	qr.WordsNDCG = ndcgAt(pageSize, ranked, q.Relevant)
	f.NDCG10 += qr.WordsNDCG
	f.MRR10 += mrrAt(pageSize, ranked, q.Relevant)
	f.Recall100 += recallAt(recallDepth, deep, q.Relevant)
	return nil
}

// scoreAnswer judges the sentence paperbot offers (its answer, else its
// snippet) when the top paper is relevant and has rationales.
func (r *Report) scoreAnswer(qr *QueryResult, q Query, res *search.Results, ranked []string) {
	if len(ranked) == 0 || q.Relevant[ranked[0]] == 0 {
		return
	}
	rats := q.Rationales[ranked[0]]
	if len(rats) == 0 {
		return
	}
	top := res.Results[0]
	text := top.Answer
	if text != "" {
		r.AnswerGiven++
	} else {
		text = top.Snippet.String()
	}
	qr.Answer = text
	ok := false
	for _, s := range rats {
		if tokenF1(text, s) >= answerF1 {
			ok = true
			break
		}
	}
	qr.AnswerOK = &ok
	r.AnswerJudged++
	if ok {
		r.AnswerCorrect++
	}
}
