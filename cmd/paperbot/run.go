package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"

	"github.com/paperbot/paperbot/search"
)

// Exit codes of run, as ripgrep and grep use them (docs/commands.md, "Exit codes").
const (
	exitOK    = 0 // done; search, ask and similar found relevant papers
	exitNo    = 1 // the answer is no: nothing relevant matched, not healthy, not ready to go live
	exitUsage = 2 // a mistake in the command line
	exitError = 2 // anything else that failed (configuration, corpus, index, Slack)
)

// env carries a command's inputs and outputs, so tests (and the running
// bot, for commands it answers on behalf of the CLI) run commands in-process.
type env struct {
	ctx    context.Context
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	cfg    Config
	// lookup reads the environment cfg came from (os.LookupEnv).
	lookup lookupFunc
	// httpListener, when set, is where serve answers health, metrics and
	// the CLI instead of listening on PAPERBOT_HTTP_ADDR itself (tests hand
	// it one on port 0, so no other process can take the port first).
	httpListener net.Listener
	// color: stdout is a terminal and NO_COLOR is not set.
	color bool
	// live, when set, holds the running bot's index and store: the command
	// runs inside `paperbot serve` on behalf of a CLI (see forward.go).
	live *liveParts
	// commands is the command table, for serve's command runner (a
	// reference from runServe to the table itself would be a cycle).
	commands []command
}

type command struct {
	name    string
	usage   string // after "paperbot "
	summary string
	run     func(e *env, args []string) error
}

// commands is the command table; `paperbot help` is rendered from it.
var commands = []command{
	{"search", "search [--json] [-n N] QUERY", "search the papers (phrases, -exclude, title: author: venue: year: has:code)", runSearch},
	{"ask", "ask [--json] [-n N] QUESTION", "answer a question with the best papers and the sentence that answers it", runAsk},
	{"show", "show [--json] ID|LINK|TITLE", "show one paper in full", runShow},
	{"similar", "similar [--json] [-n N] ID|LINK|TITLE | --text TEXT|-", "papers like a paper, or like an abstract of your own", runSimilar},
	{"index", "index [--allow-shrink]", "build or refresh the persistent index in PAPERBOT_DATA_DIR from PAPERBOT_CORPUS", runIndex},
	{"serve", "serve", "run the Slack bot over Socket Mode", runServe},
	{"fetch", "fetch", "fetch new papers from PAPERBOT_SOURCES once, then refresh the index", runFetch},
	{"digest", "digest --dry-run --channel ID|#name [--json]", "print the digests a channel would get now", runDigest},
	{"check", "check [--json]", "validate the configuration and, with tokens, the Slack connection and scopes", runCheck},
	{"healthcheck", "healthcheck", "ask the local /healthz endpoint (for container health checks)", runHealthcheck},
	{"config", "config [--json | --markdown]", "print the configuration in effect (secrets masked), or its reference table", runConfig},
	{"version", "version [--json]", "print the version, commit and corpus size", runVersion},
	{"list", listUsage, "export a user's or a channel's reading list as BibTeX or JSON", runList},
	{"store", storeUsage, "check or back up the subscription store; repair or reset it with --keep-copy", runStore},
	{"eval", "eval [--split train|test] [--json] [--curve] [--fit-answers] [--fit-refusal] [--similar] DIR", "measure search on a BEIR-layout benchmark beside plain BM25", runEval},
}

// forwardable reports whether the running bot answers the command for the
// CLI while it holds the data directory (see forward.go): the read-only
// commands that need the index or the store.
func forwardable(name string) bool {
	switch name {
	case "search", "ask", "show", "similar", "digest":
		return true
	}
	return false
}

// run executes one paperbot command and returns the process exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runOn(ctx, nil, args, stdin, stdout, stderr)
}

// runOn is run with the listener serve's HTTP endpoints use (nil: listen on
// PAPERBOT_HTTP_ADDR).
func runOn(ctx context.Context, httpListener net.Listener, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || isHelpFlag(args[0]) {
		if len(args) > 1 && args[0] == "help" { // paperbot help search
			if cmd := findCommand(commands, args[1]); cmd != nil {
				return runCommand(&env{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr, commands: commands}, cmd, []string{"--help"})
			}
		}
		printUsage(stdout)
		return exitOK
	}
	if args[0] == "--version" {
		args = append([]string{"version"}, args[1:]...)
	}
	cmd := findCommand(commands, args[0])
	if cmd == nil {
		fmt.Fprintf(stderr, "paperbot: unknown command %q%s\nRun 'paperbot --help' for the list of commands.\n",
			args[0], didYouMean(args[0], commandNames()))
		return exitUsage
	}
	cfg, err := loadConfig(os.LookupEnv)
	if err != nil && cmd.name != "config" && !wantsHelp(args[1:]) {
		fmt.Fprintf(stderr, "paperbot: %s\n", oneLine(err))
		return exitError
	}
	e := &env{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr, cfg: cfg, lookup: os.LookupEnv, httpListener: httpListener, color: wantColor(isTerminal(stdout)), commands: commands}
	return runCommand(e, cmd, args[1:])
}

// runCommand runs cmd and turns its error into a message and an exit code.
func runCommand(e *env, cmd *command, args []string) int {
	err := cmd.run(e, args)
	var ue usageError
	var help helpRequested
	var no answerNo
	var fw forwarded
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &help):
		printCommandHelp(e.stdout, cmd, help.fs)
		return exitOK
	case errors.As(err, &ue):
		fmt.Fprintf(e.stderr, "paperbot %s: %s\nusage: paperbot %s\nRun 'paperbot %s --help' for details.\n", cmd.name, ue.msg, cmd.usage, cmd.name)
		return exitUsage
	case errors.As(err, &fw):
		return fw.code // the bot wrote the command's output and messages
	case errors.As(err, &no):
		if no.msg != "" {
			fmt.Fprintf(e.stderr, "paperbot %s: %s\n", cmd.name, no.msg)
		}
		return exitNo
	}
	hint := ""
	if search.KindOf(err) == search.Invalid {
		hint = sandboxHint(e.cfg)
	}
	fmt.Fprintf(e.stderr, "paperbot %s: %s%s\n", cmd.name, userMessage(err), hint)
	return exitError
}

func findCommand(table []command, name string) *command {
	for i := range table {
		if table[i].name == name {
			return &table[i]
		}
	}
	return nil
}

func commandNames() []string {
	var names []string
	for _, c := range commands {
		names = append(names, c.name)
	}
	return names
}

// usageError is a mistake in a command's arguments: exit code 2.
type usageError struct{ msg string }

func (u usageError) Error() string { return u.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// answerNo is a negative answer rather than a failure: no relevant paper,
// not healthy, not ready. Exit code 1; msg, if any, goes to stderr.
type answerNo struct{ msg string }

func (a answerNo) Error() string { return a.msg }

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
		return oneLine(err) + " (is paperbot serve running? To re-index with a new PAPERBOT_CORPUS, " +
			"send it SIGHUP: systemctl reload paperbot, or kill -HUP its PID)"
	}
	return oneLine(err)
}

func oneLine(err error) string {
	return strings.ReplaceAll(err.Error(), "\n", "; ")
}

// wantColor reports whether output to a terminal may use color and bold:
// not when NO_COLOR is set to anything non-empty (https://no-color.org).
func wantColor(terminal bool) bool {
	return terminal && os.Getenv("NO_COLOR") == ""
}

// environment is where the command's configuration came from: e.lookup, or
// the process environment when the env was built without one.
func (e *env) environment() lookupFunc {
	if e.lookup != nil {
		return e.lookup
	}
	return os.LookupEnv
}
