package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/paperbot/paperbot/bot"
	"github.com/paperbot/paperbot/search"
)

// queryFlags are the flags shared by search, ask and similar.
type queryFlags struct {
	json  bool
	limit int
}

func (q *queryFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&q.json, "json", false, "print JSON")
	fs.IntVar(&q.limit, "n", 5, "number of results, `N` from 1 to 100")
}

func (q queryFlags) validate() error {
	if q.limit < 1 || q.limit > 100 {
		return usagef("-n must be between 1 and 100")
	}
	return nil
}

func runSearch(e *env, args []string) error { return runQuery(e, "search", args) }
func runAsk(e *env, args []string) error    { return runQuery(e, "ask", args) }

// runQuery serves search and ask: the index answers both; ask differs only in
// what the human output leads with.
func runQuery(e *env, name string, args []string) error {
	fs := newFlags(name)
	var qf queryFlags
	qf.register(fs)
	if err := parseQueryFlags(fs, args); err != nil {
		return err
	}
	if err := qf.validate(); err != nil {
		return err
	}
	// As the bot reads a message: a question copied from Slack, with its
	// mentions and emoji, gets the same answer here.
	text := bot.PlainText(strings.Join(fs.Args(), " "))
	if text == "" {
		return usagef("say what to look for, for example: paperbot %s \"kv cache compression\"", name)
	}
	// Parsed once, for the count asked for and the search; a text that
	// does not parse gets the index's message from Search.
	query, _ := search.ParseQuery(text)
	if query != nil && query.AskedCount() > 0 && !flagSet(fs, "n") {
		qf.limit = min(query.AskedCount(), 100) // "give me 3 papers on …", as the bot pages it
	}
	if err := e.forward(name, args, ""); err != nil {
		return err
	}
	ix, done, err := e.queryIndex()
	if err != nil {
		return err
	}
	defer done()
	if target, ok := search.SimilarTarget(text); ok {
		// "papers similar to <title>", as the bot answers it.
		if p, err := ix.Lookup(e.ctx, target); err == nil {
			res, err := ix.Similar(e.ctx, p.ID, qf.limit)
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stderr, "papers like %s: %s\n", p.ID, printable(p.Title))
			return e.printResults(res, qf.json, false)
		}
	}
	if search.PastedText(text) {
		// A pasted abstract, as the bot answers it: the papers like it.
		res, err := ix.SimilarText(e.ctx, text, qf.limit)
		if err != nil {
			return err
		}
		fmt.Fprintln(e.stderr, "papers like the text you gave")
		return e.printResults(res, qf.json, false)
	}
	// ask wants an answer sentence whatever the words, as a mention does.
	res, err := ix.Search(e.ctx, search.Request{Text: text, Query: query, Limit: qf.limit, Answer: name == "ask"})
	if err != nil {
		return err
	}
	return e.printResults(res, qf.json, name == "ask")
}

// printResults writes results as JSON or text; no relevant result is the
// negative answer (exit 1), as in grep.
func (e *env) printResults(res *search.Results, asJSON, answerFirst bool) error {
	if asJSON {
		if err := writeJSON(e.stdout, res); err != nil {
			return err
		}
	} else {
		printResults(e.stdout, res, answerFirst, e.color)
	}
	if len(res.Results) == 0 || res.NoMatch {
		return answerNo{}
	}
	return nil
}

func runShow(e *env, args []string) error {
	fs := newFlags("show")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 || strings.TrimSpace(fs.Arg(0)) == "" {
		return usagef("give one paper ID, as shown next to each result, or its title in quotes")
	}
	if err := e.forward("show", args, ""); err != nil {
		return err
	}
	ix, done, err := e.queryIndex()
	if err != nil {
		return err
	}
	defer done()
	p, err := ix.Lookup(e.ctx, fs.Arg(0))
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(e.stdout, p)
	}
	printPaper(e.stdout, p)
	return nil
}

func runSimilar(e *env, args []string) error {
	fs := newFlags("similar")
	var qf queryFlags
	qf.register(fs)
	text := fs.String("text", "", "an abstract of your own, `TEXT`; - reads it from standard input")
	if err := parseQueryFlags(fs, args); err != nil {
		return err
	}
	if err := qf.validate(); err != nil {
		return err
	}
	if (*text == "") == (fs.NArg() != 1) || (*text == "" && strings.TrimSpace(fs.Arg(0)) == "") {
		return usagef("give one paper ID (or its title in quotes), or --text with an abstract (--text - reads standard input)")
	}
	stdin := ""
	if *text == "-" {
		b, err := io.ReadAll(io.LimitReader(e.stdin, 1<<20))
		if err != nil {
			return fmt.Errorf("reading standard input: %w", err)
		}
		*text, stdin = string(b), string(b)
	}
	if err := e.forward("similar", args, stdin); err != nil {
		return err
	}
	ix, done, err := e.queryIndex()
	if err != nil {
		return err
	}
	defer done()
	var res *search.Results
	if *text != "" {
		if res, err = ix.SimilarText(e.ctx, *text, qf.limit); err == nil {
			fmt.Fprintln(e.stderr, "papers like the text you gave")
		}
	} else {
		var p search.Paper
		if p, err = ix.Lookup(e.ctx, fs.Arg(0)); err == nil {
			if res, err = ix.Similar(e.ctx, p.ID, qf.limit); err == nil {
				// A name may be another paper's than the one meant ("MAMBA:
				// … Meta-Reinforcement Learning"): say which one this is.
				fmt.Fprintf(e.stderr, "papers like %s: %s\n", p.ID, printable(p.Title))
			}
		}
	}
	if err != nil {
		return err
	}
	return e.printResults(res, qf.json, false)
}

func runIndex(e *env, args []string) error {
	fs := newFlags("index")
	allow := fs.Bool("allow-shrink", false, "replace the index even if the corpus lost more than 2% of its papers or skipped records")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("index takes no arguments; set PAPERBOT_CORPUS and PAPERBOT_DATA_DIR")
	}
	if e.cfg.DataDir == "" {
		return fmt.Errorf("PAPERBOT_DATA_DIR is not set: the index would only live in memory")
	}
	cfg := e.cfg
	cfg.AllowShrink = cfg.AllowShrink || *allow
	log := cfg.newLogger(e.stderr)
	ix, corpus, err := openIndex(e.ctx, cfg, log, progressOut(e.stderr))
	if err != nil {
		return err
	}
	defer ix.Close()
	st := ix.Stats()
	fmt.Fprintf(e.stdout, "index ready in %s: %d papers from %s (%d duplicates merged, %d records skipped)\n",
		indexDir(e.cfg), st.Papers, corpusName(e.cfg), corpus.Duplicates, corpus.Skipped)
	if len(corpus.Problems) > 0 {
		fmt.Fprintln(e.stdout, "problems found while loading:")
	}
	for _, p := range firstN(corpus.Problems, 10) {
		fmt.Fprintf(e.stdout, "  - %s\n", p)
	}
	if n := len(corpus.Problems) - 10; n > 0 {
		fmt.Fprintf(e.stdout, "  (%d more)\n", n)
	}
	return nil
}

func corpusName(cfg Config) string {
	if cfg.Corpus == "" {
		return "the embedded seeds"
	}
	return cfg.Corpus
}

// quietLogger logs warnings only: query commands print results, not chatter.
func quietLogger(e *env) *slog.Logger {
	return slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// flagSet reports whether the command line set flag name.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
