package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"text/tabwriter"
)

// version and commit are set at build time:
// go build -ldflags "-X main.version=v1.2.3 -X main.commit=$(git rev-parse --short HEAD)"
var (
	version = "dev"
	commit  = ""
)

// runConfig prints the configuration in effect (secrets masked), or the
// reference page, docs/configuration.md (--markdown). A malformed or invalid value
// is an error (exit 2), after the values are shown.
func runConfig(e *env, args []string) error {
	fs := newFlags("config")
	asJSON := fs.Bool("json", false, "print the values in effect as JSON")
	markdown := fs.Bool("markdown", false, "print the reference page (variable, default, description) in Markdown, as docs/configuration.md")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 || (*asJSON && *markdown) {
		return usagef("config takes no arguments, and either --json or --markdown")
	}
	if *markdown {
		return printConfigPage(e.stdout)
	}
	entries := configInEffect(e.environment())
	if *asJSON {
		if err := writeJSON(e.stdout, entries); err != nil {
			return err
		}
	} else {
		tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
		for _, c := range entries {
			from := "default"
			if c.Set {
				from = "set"
			}
			v := c.Value
			if v != strings.TrimSpace(v) {
				v = strconv.Quote(v) // a prefix's trailing space, made visible
			}
			fmt.Fprintf(tw, "%s=%s\t(%s)\n", c.Name, v, from)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintln(e.stdout, "\nDescriptions and defaults: paperbot config --markdown; every variable is in .env.example.")
	}
	_, err := loadConfig(e.environment())
	return err
}

type versionInfo struct {
	Version string `json:"version"`
	Commit  string `json:"commit"`
	Go      string `json:"go"`
	Papers  int    `json:"corpus_papers"`
	Corpus  string `json:"corpus"`
}

func runVersion(e *env, args []string) error {
	fs := newFlags("version")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("version takes no arguments")
	}
	corpus, err := loadCorpus(e.cfg)
	if err != nil {
		return err
	}
	v := versionInfo{Version: version, Commit: buildCommit(), Go: runtime.Version(), Papers: len(corpus.Papers), Corpus: corpusName(e.cfg)}
	if v.Version == "" { // built with an empty -X main.version=$VERSION
		v.Version = "dev"
	}
	if *asJSON {
		return writeJSON(e.stdout, v)
	}
	fmt.Fprintf(e.stdout, "paperbot %s (commit %s, %s)\ncorpus: %d papers from %s\n", v.Version, v.Commit, v.Go, v.Papers, v.Corpus)
	return nil
}

func buildCommit() string {
	if commit != "" {
		return commit
	}
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 7 {
				return s.Value[:7]
			}
		}
	}
	return "unknown"
}
