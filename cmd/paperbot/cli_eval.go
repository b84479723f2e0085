package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/paperbot/paperbot/search"
	"github.com/paperbot/paperbot/search/eval"
	"github.com/paperbot/paperbot/search/semantic"
	"github.com/paperbot/paperbot/search/semantic/served"
	"github.com/paperbot/paperbot/seeds"
)

// evalOutput is what eval prints with --json.
type evalOutput struct {
	Report  *eval.Report      `json:"report"`
	Refusal []*eval.Refusal   `json:"off_domain,omitempty"`
	Curve   []eval.CurvePoint `json:"curve,omitempty"`
	// Fitted is the refusal threshold the curve recommends (--curve).
	Fitted float64 `json:"fitted_threshold,omitempty"`
	// Similar measures "papers like this one" (--similar).
	Similar *eval.SimilarReport `json:"similar,omitempty"`
}

// The refusal curve's grid, and the false-refusal rate its fitted threshold
// keeps to (3 in 300 answerable queries is the product's bar).
const (
	curveSteps       = 100
	maxFalseRefusals = 0.005
	// absentFold is how many topics --absent-topics holds out at once.
	absentFold = 25
)

// runEval measures search on a benchmark in BEIR layout, beside a plain BM25
// baseline built in the same run, and optionally how often paperbot refuses
// queries nothing in a corpus is relevant to.
func runEval(e *env, args []string) error {
	fs := newFlags("eval")
	split := fs.String("split", "test", "qrels split: train or test")
	asJSON := fs.Bool("json", false, "print JSON (with one line per query)")
	offCorpus := fs.String("off-domain", "", "comma-separated corpus files or globs (\"seeds\" for the embedded seeds): ask the split's queries of them; all should be refused")
	offQueries := fs.String("off-domain-queries", "", "file of queries (one a line, or a JSON array of {\"query\"}) nothing in DIR is about: ask them of DIR's corpus")
	curve := fs.Bool("curve", false, "print the refusal trade-off (confidence threshold against false and right refusals)")
	fitAnswers := fs.Bool("fit-answers", false, "fit the answer sentence scorer on the split's rationales (train only) and print its weights as Go")
	similar := fs.Bool("similar", false, "measure papers like each paper instead: the share of the first ten that one of the split's queries judges relevant with it, beside plain BM25 of the paper's text")
	embURL := fs.String("embeddings-url", "", "rank with the model an OpenAI-compatible embeddings server at this URL serves (as PAPERBOT_EMBEDDINGS_URL), instead of the embedded one")
	embModel := fs.String("embeddings-model", "", "the model to ask --embeddings-url for")
	embQuery := fs.String("embeddings-query-prefix", "", "text put before each query sent to --embeddings-url (as PAPERBOT_EMBEDDINGS_QUERY_PREFIX), such as \"query: \" for e5")
	embDoc := fs.String("embeddings-document-prefix", "", "text put before each paper sent to --embeddings-url (as PAPERBOT_EMBEDDINGS_DOCUMENT_PREFIX), such as \"passage: \" for e5")
	embCache := fs.String("embeddings-cache", "", "directory of the served model's vector cache, kept between runs (train and test share a corpus)")
	absent := fs.Int("absent-topics", 0, "also ask the split's queries of up to N words with their judged papers held out of the corpus (25 at a time): short in-domain topics no paper covers, all should be refused")
	fitRefusal := fs.Bool("fit-refusal", false, "fit the refusal (domain weight and confidence threshold) on the split's queries and the off-domain sets (train only)")
	var sets []string // applied once the model is known: a served one has its own defaults
	fs.Func("set", "override a ranking parameter, NAME=VALUE ("+strings.Join(search.TuningNames(), ", ")+"); repeatable", func(v string) error {
		name, value, _ := strings.Cut(v, "=")
		probe := search.DefaultTuning()
		if err := probe.Set(name, value); err != nil {
			return err
		}
		sets = append(sets, v)
		return nil
	})
	dir, err := parseOnePositional(fs, args)
	if err != nil {
		return err
	}
	if dir == "" {
		return usagef("name a benchmark directory in BEIR layout, e.g. paperbot eval ../shared/benchmarks/scifact")
	}
	if *split != "train" && *split != "test" && *split != "dev" {
		return usagef("--split must be train, test or dev")
	}
	if *fitAnswers && *split == "test" {
		return usagef("--fit-answers fits on a train split: the test split is held out (report it with eval --split test)")
	}
	if *fitRefusal && *split == "test" {
		return usagef("--fit-refusal fits on a train split: the test split is held out (report it with eval --split test)")
	}
	if *fitRefusal && *offCorpus == "" && *offQueries == "" {
		return usagef("--fit-refusal needs off-domain queries: --off-domain, --off-domain-queries or both")
	}
	if *embURL == "" && (*embQuery != "" || *embDoc != "") {
		return usagef("--embeddings-query-prefix and --embeddings-document-prefix go with --embeddings-url: the embedded model takes no prefix")
	}
	tuning := search.DefaultTuning()
	if *embURL != "" {
		tuning = search.ServedTuning()
	}
	for _, v := range sets {
		name, value, _ := strings.Cut(v, "=")
		_ = tuning.Set(name, value) // checked when the flag was read
	}
	opts := eval.Options{Search: search.Options{Tuning: &tuning}}
	if *embURL != "" {
		emb, release, err := evalEmbedder(e, Config{EmbeddingsURL: *embURL, EmbeddingsModel: *embModel,
			EmbeddingsQueryPrefix: *embQuery, EmbeddingsDocumentPrefix: *embDoc}, *embCache)
		if err != nil {
			return err
		}
		defer release()
		opts.Search.Embedder = emb
	}
	b, err := eval.LoadBEIR(dir, *split)
	if err != nil {
		return fmt.Errorf("read benchmark: %w", err)
	}
	if *fitAnswers {
		return runFitAnswers(e, b, opts, *asJSON)
	}
	if *fitRefusal {
		return runFitRefusal(e, b, *offCorpus, *offQueries, opts, *asJSON)
	}
	out := evalOutput{}
	if *similar {
		if out.Similar, err = eval.RunSimilar(e.ctx, b, opts); err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(e.stdout, out)
		}
		fmt.Fprintf(e.stdout, "papers like each of %d papers, precision@10 (related: judged relevant to one query together)\nplain BM25 (baseline)     %.3f\npaperbot                  %.3f\n", out.Similar.Papers, out.Similar.Baseline, out.Similar.Paperbot)
		return nil
	}
	if out.Report, err = eval.Run(e.ctx, b, opts); err != nil {
		return err
	}
	off, err := offDomainSets(b, *offCorpus, *offQueries)
	if err != nil {
		return err
	}
	for _, set := range off {
		r, err := eval.RunRefusal(e.ctx, set.Name, set.Corpus, set.Queries, opts)
		if err != nil {
			return err
		}
		out.Refusal = append(out.Refusal, r)
	}
	if *absent > 0 {
		r, err := eval.AbsentTopics(e.ctx, b, *absent, absentFold, opts)
		if err != nil {
			return err
		}
		out.Refusal = append(out.Refusal, r)
	}
	if *curve {
		var answerable, offConf []float64
		for _, q := range out.Report.PerQuery {
			answerable = append(answerable, eval.CurveConfidence(q.NoMatch, q.Confidence, tuning.Refuse))
		}
		for _, r := range out.Refusal {
			offConf = append(offConf, r.CurveConfidences()...)
		}
		out.Curve = eval.Curve(answerable, offConf, curveSteps)
		out.Fitted = eval.FitThreshold(answerable, maxFalseRefusals, curveSteps)
	}
	if *asJSON {
		return writeJSON(e.stdout, out)
	}
	printEval(e.stdout, out)
	return nil
}

// offDomainSets are the queries nothing is relevant to: b's queries asked
// of the corpus files offCorpus, and the queries of the file offQueries
// asked of b's corpus (either may be "").
func offDomainSets(b *eval.Benchmark, offCorpus, offQueries string) ([]eval.QuerySet, error) {
	var off []eval.QuerySet
	if offCorpus != "" {
		c, err := loadEvalCorpus(offCorpus)
		if err != nil {
			return nil, err
		}
		off = append(off, eval.QuerySet{Name: b.Name + " " + b.Split + " queries asked of " + offCorpus, Corpus: c, Queries: b.QueryTexts()})
	}
	if offQueries != "" {
		qs, err := readQueries(offQueries)
		if err != nil {
			return nil, err
		}
		off = append(off, eval.QuerySet{Name: offQueries + " asked of " + b.Name, Corpus: b.Corpus, Queries: qs})
	}
	return off, nil
}

// parseOnePositional parses flags that may stand before or after one
// positional argument.
func parseOnePositional(fs *flag.FlagSet, args []string) (string, error) {
	if err := parseFlags(fs, args); err != nil {
		return "", err
	}
	rest := fs.Args()
	if len(rest) == 0 {
		return "", nil
	}
	pos := rest[0]
	if err := parseFlags(fs, rest[1:]); err != nil {
		return "", err
	}
	if len(fs.Args()) > 0 {
		return "", usagef("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	return pos, nil
}

// loadEvalCorpus loads comma-separated globs; "seeds" is the embedded seeds.
func loadEvalCorpus(list string) (*search.Corpus, error) {
	var files []string
	var parts []*search.Corpus
	for _, p := range strings.Split(list, ",") {
		p = strings.TrimSpace(p)
		switch p {
		case "":
		case "seeds":
			c, err := search.LoadFS(seeds.FS, "*.txt")
			if err != nil {
				return nil, err
			}
			parts = append(parts, c)
		default:
			files = append(files, p)
		}
	}
	if len(files) > 0 {
		c, err := search.LoadFiles(files)
		if err != nil {
			return nil, err
		}
		parts = append(parts, c)
	}
	merged := &search.Corpus{}
	seen := map[string]bool{}
	for _, c := range parts {
		for _, p := range c.Papers {
			if !seen[p.ID] {
				seen[p.ID] = true
				merged.Papers = append(merged.Papers, p)
			}
		}
	}
	if len(merged.Papers) == 0 {
		return nil, usagef("--off-domain %q names no papers", list)
	}
	return merged, nil
}

// readQueries reads one query a line, or a JSON array of objects with a
// "query" field (the format of search/testdata/relevance.json).
func readQueries(file string) ([]string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if t := strings.TrimSpace(string(data)); strings.HasPrefix(t, "[") {
		var recs []struct {
			Query string `json:"query"`
		}
		if err := json.Unmarshal(data, &recs); err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		var out []string
		for _, r := range recs {
			if r.Query != "" {
				out = append(out, r.Query)
			}
		}
		return out, nil
	}
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out, nil
}

func printEval(w io.Writer, out evalOutput) {
	r := out.Report
	fmt.Fprintf(w, "%s, %s split: %d queries\n", r.Benchmark, r.Split, r.Queries)
	if r.Copies > 0 || r.Unloaded > 0 {
		fmt.Fprintf(w, "paperbot indexes %d of %d documents: %d merged into a paper with the same text (ranked with it), %d not indexed (neither title nor text, or another's title); the baseline indexes all\n",
			r.Docs-r.Copies-r.Unloaded, r.Docs, r.Copies, r.Unloaded)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%-22s %8s %8s %10s\n", "", "nDCG@10", "MRR@10", "Recall@100")
	fmt.Fprintf(w, "%-22s %8.3f %8.3f %10.3f\n", "plain BM25 (baseline)", r.Baseline.NDCG10, r.Baseline.MRR10, r.Baseline.Recall100)
	if r.Words != nil {
		fmt.Fprintf(w, "%-22s %8.3f %8.3f %10.3f\n", "paperbot, words only", r.Words.NDCG10, r.Words.MRR10, r.Words.Recall100)
	}
	fmt.Fprintf(w, "%-22s %8.3f %8.3f %10.3f\n\n", "paperbot", r.Paperbot.NDCG10, r.Paperbot.MRR10, r.Paperbot.Recall100)
	fmt.Fprintf(w, "refused (no_match) on answerable queries: %d of %d (%d with a relevant paper at rank 1)\n", r.Refused, r.Queries, r.RefusedTop1)
	fmt.Fprintf(w, "answer accuracy (top paper relevant, token F1 >= 0.6 with a rationale): %d of %d = %.3f (%d with an answer sentence)\n",
		r.AnswerCorrect, r.AnswerJudged, r.AnswerAcc, r.AnswerGiven)
	if r.AnswerJudged > 0 {
		fmt.Fprintf(w, "  the same queries with the earlier cue scorer: %d of %d = %.3f\n",
			r.AnswerCorrectCues, r.AnswerJudged, float64(r.AnswerCorrectCues)/float64(r.AnswerJudged))
	}
	fmt.Fprintf(w, "query time, page of 10 with snippets and answers: p50 %.2f ms, p99 %.2f ms\n", r.P50, r.P99)
	for _, o := range out.Refusal {
		fmt.Fprintf(w, "off-domain refusal, %s: %d of %d = %.3f\n", o.Name, o.Refused, o.Queries, o.Share)
	}
	if len(out.Curve) > 0 {
		fmt.Fprintf(w, "\nrefusal trade-off (refuse when confidence < threshold)\n%9s %15s %19s\n", "threshold", "false refusals", "off-domain refused")
		for _, p := range out.Curve {
			fmt.Fprintf(w, "%9.3f %15d %19.3f\n", p.Threshold, p.FalseRefusals, p.OffRefused)
		}
		fmt.Fprintf(w, "fitted threshold (at most %.1f%% false refusals on this split): %.2f\n", 100*maxFalseRefusals, out.Fitted)
	}
}

// evalEmbedder is the served model cfg names (URL, model, prefixes) for
// eval, behind a vector cache when cacheDir is set.
func evalEmbedder(e *env, cfg Config, cacheDir string) (semantic.Embedder, func(), error) {
	cfg.EmbeddingsBatch, cfg.EmbeddingsTimeout, cfg.Meaning = 32, 5*time.Minute, true
	if err := cfg.validateEmbeddings(); err != nil {
		return nil, nil, usagef("%v", err)
	}
	client, err := cfg.embeddingsClient()
	if err != nil {
		return nil, nil, err
	}
	if _, err := client.Probe(e.ctx); err != nil {
		return nil, nil, fmt.Errorf("the embeddings server at %s: %w", shownURL(cfg.EmbeddingsURL), err)
	}
	if cacheDir == "" {
		return client, func() {}, nil
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return nil, nil, err
	}
	cache, err := served.OpenCache(cacheDir, quietLogger(e))
	if err != nil {
		return nil, nil, err
	}
	return served.NewCachedEmbedder(client, cache), func() { _ = cache.Close() }, nil
}
