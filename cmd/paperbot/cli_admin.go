package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// version and commit are set at build time:
// go build -ldflags "-X main.version=v1.2.3 -X main.commit=$(git rev-parse --short HEAD)"
var (
	version = "dev"
	commit  = ""
)

func runConfig(e *env, args []string) error {
	if len(args) > 0 {
		return usagef("config takes no arguments")
	}
	fmt.Fprintln(e.stdout, "paperbot reads these environment variables (see also .env.example):")
	fmt.Fprintln(e.stdout)
	return printConfigTable(e.stdout)
}

func runVersion(e *env, args []string) error {
	if len(args) > 0 {
		return usagef("version takes no arguments")
	}
	corpus, err := loadCorpus(e.cfg)
	if err != nil {
		return err
	}
	v := version
	if v == "" { // built with an empty -X main.version=$VERSION
		v = "dev"
	}
	fmt.Fprintf(e.stdout, "paperbot %s (commit %s, %s)\ncorpus: %d papers from %s\n",
		v, buildCommit(), runtime.Version(), len(corpus.Papers), corpusName(e.cfg))
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
