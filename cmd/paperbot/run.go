package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/paperbot/paperbot/search"
)

// Exit codes of run.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

// env carries a command's inputs and outputs, so tests run commands in-process.
type env struct {
	ctx    context.Context
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	cfg    Config
}

type command struct {
	name    string
	usage   string
	summary string
	run     func(e *env, args []string) error
}

// commands is the command table; `paperbot help` is rendered from it.
var commands = []command{
	{"search", "search [--json] [-n N] QUERY", "search the papers (phrases, -exclude, title: author: venue: year: has:code)", runSearch},
	{"ask", "ask [--json] [-n N] QUESTION", "answer a question with the best papers and the sentence that answers it", runAsk},
	{"show", "show [--json] ID", "show one paper in full", runShow},
	{"similar", "similar [--json] [-n N] ID | --text TEXT|-", "papers like a paper, or like an abstract of your own", runSimilar},
	{"index", "index", "build or refresh the persistent index in PAPERBOT_DATA_DIR from PAPERBOT_CORPUS", runIndex},
	{"serve", "serve", "run the Slack bot over Socket Mode", runServe},
	{"digest", "digest --dry-run --channel ID", "print the digests a channel would get now", runDigest},
	{"store", storeUsage, "check or back up the subscription store; repair or reset it with --keep-copy", runStore},
	{"check", "check", "validate the configuration and, with tokens, the Slack connection and scopes", runCheck},
	{"healthcheck", "healthcheck", "ask the local /healthz endpoint (for container health checks)", runHealthcheck},
	{"config", "config", "print every configuration variable with its default and description", runConfig},
	{"version", "version", "print the version, commit and corpus size", runVersion},
	{"eval", "eval [--split train|test] [--json] [--off-domain CORPUS] [--off-domain-queries FILE] [--curve] DIR", "measure search on a BEIR-layout benchmark beside plain BM25", runEval},
}

// run executes one paperbot command and returns the process exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		printUsage(stdout)
		return exitOK
	}
	var cmd *command
	for i := range commands {
		if commands[i].name == args[0] {
			cmd = &commands[i]
		}
	}
	if cmd == nil {
		fmt.Fprintf(stderr, "paperbot: unknown command %q\n\n", args[0])
		printUsage(stderr)
		return exitUsage
	}
	cfg, err := loadConfig()
	if err != nil && cmd.name != "config" {
		fmt.Fprintf(stderr, "paperbot: %s\n", oneLine(err))
		return exitError
	}
	e := &env{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr, cfg: cfg}
	if err := cmd.run(e, args[1:]); err != nil {
		var ue usageError
		if errors.As(err, &ue) {
			fmt.Fprintf(stderr, "paperbot %s: %s\nusage: paperbot %s\n", cmd.name, ue.msg, cmd.usage)
			return exitUsage
		}
		fmt.Fprintf(stderr, "paperbot %s: %s\n", cmd.name, userMessage(err))
		return exitError
	}
	return exitOK
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "paperbot finds research papers and the sentence that answers your question.")
	fmt.Fprintln(w, "\nUsage:")
	for _, c := range commands {
		fmt.Fprintf(w, "  paperbot %-45s %s\n", c.usage, c.summary)
	}
	fmt.Fprintln(w, "\nConfiguration comes from the environment: see `paperbot config`.")
}

// usageError is a mistake in a command's arguments.
type usageError struct{ msg string }

func (u usageError) Error() string { return u.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// userMessage turns an error into one friendly line: search's own messages
// for bad input, the error text otherwise (our errors never carry secrets).
func userMessage(err error) string {
	if k := search.KindOf(err); k == search.Invalid || k == search.NotFound {
		return search.Message(err)
	}
	if errors.Is(err, context.Canceled) {
		return "interrupted"
	}
	if errors.Is(err, search.ErrInUse) {
		return oneLine(err) + " (is paperbot serve running? Ask it in Slack; to re-index with a new PAPERBOT_CORPUS, " +
			"send it SIGHUP: systemctl reload paperbot, or kill -HUP its PID)"
	}
	return oneLine(err)
}

func oneLine(err error) string {
	return strings.ReplaceAll(err.Error(), "\n", "; ")
}

// newFlags returns a flag set whose errors are returned, not printed.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return usagef("%v", err)
	}
	return nil
}

// parseQueryFlags parses the flags fs defines wherever they stand, so
// `search kv cache -n 3` works, and leaves every other word, -exclusions
// included, to the query: fs.Args() is the query. "--" ends the flags.
func parseQueryFlags(fs *flag.FlagSet, args []string) error {
	var flags, query []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			query = append(query, args[i+1:]...)
			break
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		f := fs.Lookup(name)
		if !strings.HasPrefix(a, "-") || f == nil {
			query = append(query, a)
			continue
		}
		flags = append(flags, a)
		if _, isBool := f.Value.(interface{ IsBoolFlag() bool }); !isBool && !hasValue {
			if i+1 == len(args) {
				return usagef("%s needs a value", a)
			}
			i++
			flags = append(flags, args[i])
		}
	}
	return parseFlags(fs, append(flags, append([]string{"--"}, query...)...))
}
