// Command paperbench measures paperbot's index against plain bleve on a
// synthetic corpus of any size, generated deterministically from the real
// abstracts' sentences (../shared/corpora when present) and the embedded
// seeds. Every figure comes from a fresh child process:
//
//	go run ./cmd/paperbench -n 100000
//
// builds both indexes (build rate, peak RSS), reopens each in a new process
// and answers one query (open-to-first-answer time and RSS, segments), then
// times queries in another (p50/p99, serving RSS per paper), and prints a
// Markdown table. The corpus is written once to -work and reused.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

func main() {
	started := time.Now()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, started, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "paperbench:", err)
		os.Exit(1)
	}
}

// config is the command line.
type config struct {
	n       int
	work    string
	nq      int
	runs    int
	engines []string
	corpora []string
	// child role and its arguments (internal)
	child, engine, corpus, dir string
	cpuprofile                 string
	check                      bool
}

func parse(args []string, stderr io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("paperbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&c.n, "n", 100_000, "papers in the synthetic corpus")
	fs.StringVar(&c.work, "work", filepath.Join(os.TempDir(), "paperbench"), "directory for the corpus and the indexes")
	fs.IntVar(&c.nq, "queries", 400, "timed queries per engine")
	fs.IntVar(&c.runs, "runs", 2, "fresh-process first answers per engine")
	engines := fs.String("engines", enginePaperbot+","+enginePlain, "engines to measure")
	corpora := fs.String("corpora", "../shared/corpora/dotd-NeurIPS2024Scrape/*.csv,../shared/corpora/papercopilot-paperlists/*.json",
		"real corpora whose sentences, titles and authors synthetic papers are drawn from (absent: the seeds alone)")
	fs.StringVar(&c.child, "child", "", "internal: run one measurement as a child process")
	fs.StringVar(&c.engine, "engine", "", "internal: the child's engine")
	fs.StringVar(&c.corpus, "corpus", "", "internal: the child's corpus file")
	fs.StringVar(&c.dir, "dir", "", "internal: the child's index directory")
	fs.StringVar(&c.cpuprofile, "cpuprofile", "", "with -child: write the child's CPU profile to this file")
	fs.BoolVar(&c.check, "check", false, "exit 1 when paperbot misses the memory and latency bounds for this size (see check.go)")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	c.engines = strings.Split(*engines, ",")
	c.corpora = strings.Split(*corpora, ",")
	if c.n <= 0 || c.nq <= 0 || c.runs <= 0 {
		return c, fmt.Errorf("-n, -queries and -runs must be positive")
	}
	return c, nil
}

func run(ctx context.Context, started time.Time, args []string, stdout, stderr io.Writer) error {
	c, err := parse(args, stderr)
	if err != nil {
		return err
	}
	if c.child != "" {
		if c.cpuprofile != "" {
			stop, err := startCPUProfile(c.cpuprofile)
			if err != nil {
				return err
			}
			defer stop()
		}
		return runChild(ctx, started, c.child, c.engine, c.corpus, c.dir, c.nq, stdout)
	}
	rows, err := measure(ctx, c, stderr)
	if err != nil {
		return err
	}
	writeTable(stdout, c.n, rows)
	if miss := missed(c.n, rows); c.check && len(miss) > 0 {
		return missedError(c.n, miss)
	}
	return nil
}

// measure generates the corpus if needed, then measures each engine.
func measure(ctx context.Context, c config, log io.Writer) ([]row, error) {
	if err := os.MkdirAll(c.work, 0o755); err != nil {
		return nil, err
	}
	corpus := filepath.Join(c.work, fmt.Sprintf("corpus-%d.jsonl", c.n))
	if _, err := os.Stat(corpus); err != nil {
		fmt.Fprintf(log, "generating %d papers into %s\n", c.n, corpus)
		p, err := loadPools(c.corpora)
		if err != nil {
			return nil, err
		}
		if err := writeCorpus(corpus, c.n, p); err != nil {
			return nil, err
		}
	}
	var rows []row
	for _, name := range c.engines {
		dir := filepath.Join(c.work, fmt.Sprintf("%s-%d", name, c.n))
		if err := os.RemoveAll(dir); err != nil {
			return nil, err
		}
		r := row{engine: name}
		fmt.Fprintf(log, "%s: building\n", name)
		b, err := spawn(ctx, roleBuild, name, corpus, dir, c.nq)
		if err != nil {
			return nil, err
		}
		r.build = b
		for i := range c.runs {
			fmt.Fprintf(log, "%s: first answer, fresh process %d\n", name, i+1)
			f, err := spawn(ctx, roleFirst, name, corpus, dir, c.nq)
			if err != nil {
				return nil, err
			}
			r.first = append(r.first, f)
		}
		fmt.Fprintf(log, "%s: %d timed queries\n", name, c.nq)
		if r.query, err = spawn(ctx, roleQuery, name, corpus, dir, c.nq); err != nil {
			return nil, err
		}
		rows = append(rows, r)
	}
	return rows, nil
}
