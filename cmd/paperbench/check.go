package main

import (
	"fmt"
	"strings"
)

// bounds are what issue 10 asks of paperbot at a corpus size; -check makes
// a run fail when one is missed. Build rate is left out: on a shared
// machine it says more about the neighbours than about paperbot.
type bounds struct {
	peakBuildMB   float64 // any size
	firstAnswerS  float64
	firstRSSMB    float64 // 0: not bounded at this size
	p50ms, p99ms  float64
	servingKBEach float64
}

func boundsFor(n int) bounds {
	if n <= 100_000 {
		return bounds{peakBuildMB: 600, firstAnswerS: 0.3, firstRSSMB: 150, p50ms: 50, p99ms: 60, servingKBEach: 2.5}
	}
	return bounds{peakBuildMB: 600, firstAnswerS: 1, p50ms: 50, p99ms: 300, servingKBEach: 2.5}
}

// missed lists the bounds paperbot's row misses; other engines are not
// held to them.
func missed(n int, rows []row) []string {
	b := boundsFor(n)
	var out []string
	over := func(what string, got, limit float64, unit string) {
		if limit > 0 && got > limit {
			out = append(out, fmt.Sprintf("%s %.2f %s, bound %.2f %s", what, got, unit, limit, unit))
		}
	}
	for _, r := range rows {
		if r.engine != enginePaperbot {
			continue
		}
		over("peak build RSS", float64(r.build.PeakKB)/1024, b.peakBuildMB, "MB")
		for _, f := range r.first {
			over("open to first answer", f.Seconds, b.firstAnswerS, "s")
			over("RSS at first answer", float64(f.RSSKB)/1024, b.firstRSSMB, "MB")
		}
		over("query p50", r.query.P50ms, b.p50ms, "ms")
		over("query p99", r.query.P99ms, b.p99ms, "ms")
		if r.query.Papers > 0 {
			over("serving RSS per paper", float64(r.query.RSSKB)/float64(r.query.Papers), b.servingKBEach, "KB")
		}
	}
	return out
}

func missedError(n int, miss []string) error {
	return fmt.Errorf("paperbot misses issue 10's bounds at %d papers: %s", n, strings.Join(miss, "; "))
}
