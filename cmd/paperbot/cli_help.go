package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// printUsage writes the list of commands, rendered from the command table.
func printUsage(w io.Writer) {
	fmt.Fprintln(w, "paperbot finds research papers and the sentence that answers your question.")
	fmt.Fprintln(w, "\nUsage:")
	for _, c := range commands {
		fmt.Fprintf(w, "  paperbot %-48s %s\n", c.usage, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'paperbot COMMAND --help' for a command's flags; 'paperbot --version' for the version.")
	fmt.Fprintln(w, "Exit codes: 0 done (papers found), 1 no relevant match (or not healthy, not ready), 2 usage mistake or failure.")
	fmt.Fprintln(w, "Configuration comes from the environment: see `paperbot config`.")
}

// queryNote explains query words and flags to search, ask and similar users.
const queryNote = `Query words may be mixed with flags. A word with one dash is an exclusion
(diffusion -image), unless it is one of the flags above (-n 3, -h); a word
with two dashes is always a flag. Words after -- are query text.

Exit codes: 0 relevant papers found, 1 nothing relevant, 2 usage mistake or failure.
While paperbot serve runs on the same PAPERBOT_DATA_DIR, the running bot answers.`

// commandNotes are shown after a command's flags.
var commandNotes = map[string]string{
	"search":  queryNote,
	"ask":     queryNote,
	"similar": queryNote,
	"index": `Refuses to replace an index whose corpus would lose more than 2% of its papers
or skip records the live corpus did not, unless --allow-shrink (or
PAPERBOT_ALLOW_SHRINK=true) is given.`,
	"digest": `A channel name (#papers) is looked up with the bot token; give the ID (C...)
otherwise. While paperbot serve runs on the same data directory, the bot answers.`,
	"check": `Exit codes: 0 ready to go live, 1 not ready (a token missing or refused, a
scope missing), 2 usage mistake or failure.`,
	"healthcheck": "Exit codes: 0 healthy, 1 not healthy (as Docker's HEALTHCHECK expects).",
}

// printCommandHelp writes one command's usage, summary, flags and notes.
func printCommandHelp(w io.Writer, c *command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: paperbot %s\n\n%s.\n", c.usage, strings.ToUpper(c.summary[:1])+c.summary[1:])
	fmt.Fprintln(w, "\nFlags:")
	if fs != nil {
		fs.VisitAll(func(f *flag.Flag) {
			arg, usage := flag.UnquoteUsage(f)
			if _, isBool := f.Value.(interface{ IsBoolFlag() bool }); isBool {
				arg = ""
			}
			left := strings.TrimSpace(flagName(f.Name) + " " + arg)
			if f.DefValue != "" && f.DefValue != "false" {
				usage += fmt.Sprintf(" (default %s)", f.DefValue)
			}
			fmt.Fprintf(w, "  %-16s %s\n", left, usage)
		})
	}
	fmt.Fprintf(w, "  %-16s %s\n", "-h, --help", "print this help")
	if note := commandNotes[c.name]; note != "" {
		fmt.Fprintf(w, "\n%s\n", note)
	}
}
