package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// Flags follow the conventions of gh, kubectl and ripgrep:
//
//   - -h, -help and --help anywhere before "--" print the command's help
//     and exit 0;
//   - an unknown flag is a usage error (exit 2) that suggests the nearest
//     known one (--jsn: did you mean --json?);
//   - in search, ask and similar, flags may stand anywhere among the query
//     words, and a word with one dash is a flag only when it names one of
//     the command's flags (-n, -json, -h); any other -word is an exclusion of
//     the query language (diffusion -image). A word with two dashes is
//     always a flag. "--" ends the flags: what follows is query text.

// newFlags returns a flag set whose errors are returned, not printed.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// helpRequested is returned by the parsers when the user asked for help;
// runCommand prints the command's help from fs.
type helpRequested struct{ fs *flag.FlagSet }

func (helpRequested) Error() string { return "help requested" }

func isHelpFlag(a string) bool { return a == "-h" || a == "-help" || a == "--help" }

// wantsHelp reports whether args ask for help before any "--".
func wantsHelp(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if isHelpFlag(a) {
			return true
		}
	}
	return false
}

// parseFlags parses the flags of a command that takes no query: Go's flag
// syntax, flags before arguments.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if wantsHelp(args) {
		return helpRequested{fs}
	}
	if err := fs.Parse(args); err != nil {
		if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: "); ok {
			return unknownFlag(fs, name)
		}
		return usagef("%v", err)
	}
	return nil
}

// parseQueryFlags parses the flags fs defines wherever they stand (see the
// rules above) and leaves every other word to the query: fs.Args() is the
// query.
func parseQueryFlags(fs *flag.FlagSet, args []string) error {
	var flags, query []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			query = append(query, args[i+1:]...)
			break
		}
		if isHelpFlag(a) {
			return helpRequested{fs}
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		f := fs.Lookup(name)
		switch {
		case !strings.HasPrefix(a, "-") || (f == nil && !strings.HasPrefix(a, "--")) || a == "-":
			query = append(query, a) // a word, or a -exclusion
			continue
		case f == nil:
			return unknownFlag(fs, a)
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
	if err := fs.Parse(append(flags, append([]string{"--"}, query...)...)); err != nil {
		return usagef("%v", err)
	}
	return nil
}

// unknownFlag is the usage error for a flag fs does not define, with the
// nearest defined flag as a suggestion.
func unknownFlag(fs *flag.FlagSet, given string) error {
	name, _, _ := strings.Cut(strings.TrimLeft(given, "-"), "=")
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	msg := fmt.Sprintf("unknown flag %s", flagName(name))
	if near, ok := nearest(name, names); ok {
		msg += fmt.Sprintf(" (did you mean %s?)", flagName(near))
	}
	return usageError{msg}
}

// flagName writes a flag as users type it: -n, --json.
func flagName(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// didYouMean returns ` (did you mean "X"?)` for the candidate nearest to
// s, or "" when none is near.
func didYouMean(s string, candidates []string) string {
	if near, ok := nearest(s, candidates); ok {
		return fmt.Sprintf(" (did you mean %q?)", near)
	}
	return ""
}

// nearest returns the candidate closest to s by edit distance, if it is
// close enough to be a typo: at most 2 edits, and fewer than len(s).
func nearest(s string, candidates []string) (string, bool) {
	best, bestD := "", 3
	for _, c := range candidates {
		if d := editDistance(strings.ToLower(s), c); d < bestD && d < len(s) {
			best, bestD = c, d
		}
	}
	return best, best != ""
}

// editDistance is the Levenshtein distance between a and b, in bytes
// (flag and command names are ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
