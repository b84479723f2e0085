package main

import (
	"strings"
	"testing"
)

func TestMissedBounds(t *testing.T) {
	good := row{engine: enginePaperbot,
		build: childResult{PeakKB: 400 << 10},
		first: []childResult{{Seconds: 0.1, RSSKB: 60 << 10}},
		query: childResult{Papers: 100_000, P50ms: 5, P99ms: 20, RSSKB: 170 << 10}}
	plainOver := row{engine: enginePlain, build: childResult{PeakKB: 900 << 10}}
	if m := missed(100_000, []row{good, plainOver}); len(m) != 0 {
		t.Errorf("within bounds, plain bleve over them: missed %v", m)
	}
	bad := good
	bad.build.PeakKB = 700 << 10
	bad.first = []childResult{{Seconds: 0.5, RSSKB: 60 << 10}}
	m := missed(100_000, []row{bad})
	if len(m) != 2 || !strings.Contains(m[0], "peak build RSS") || !strings.Contains(m[1], "first answer") {
		t.Errorf("missed %v, want the build peak and the first answer", m)
	}
	// At a million, 0.5 s to a first answer is within bounds; the peak is not.
	if m := missed(1_000_000, []row{bad}); len(m) != 1 {
		t.Errorf("at 1M missed %v, want only the build peak", m)
	}
}
