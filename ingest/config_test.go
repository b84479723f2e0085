package ingest

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseSources(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     Sources
		err      string // substring of the error; "" for none
	}{
		{name: "empty", in: "  ", want: Sources{}},
		{name: "issue example", in: "arxiv:cs.LG,cs.CL,stat.ML; openreview:ICLR.cc/2026/Conference",
			want: Sources{ArXiv: []string{"cs.LG", "cs.CL", "stat.ML"}, OpenReview: []string{"ICLR.cc/2026/Conference"}}},
		{name: "repeated kinds add up, duplicates once", in: "arxiv:cs.LG; ARXIV: cs.LG , hep-ex ;files:/corpus/*.jsonl",
			want: Sources{ArXiv: []string{"cs.LG", "hep-ex"}, Files: []string{"/corpus/*.jsonl"}}},
		{name: "trailing semicolon", in: "arxiv:cs.LG;", want: Sources{ArXiv: []string{"cs.LG"}}},
		{name: "unknown kind names the entry", in: "arxiv:cs.LG; biorxiv:neuroscience", err: `entry 2 "biorxiv:neuroscience": unknown kind "biorxiv"`},
		{name: "no kind", in: "cs.LG", err: `entry 1 "cs.LG" has no kind`},
		{name: "no value", in: "arxiv: ,", err: "names no arxiv"},
		{name: "bad category", in: "arxiv:cs LG", err: `"cs LG" is not an arXiv category`},
		{name: "bad venue", in: "openreview:ICLR 2026", err: "not an OpenReview venue ID"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseSources(tc.in)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("ParseSources(%q) error = %v, want one containing %q", tc.in, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("ParseSources(%q) = %+v, want %+v", tc.in, got, tc.want)
			}
			if again, err := ParseSources(got.String()); err != nil || !reflect.DeepEqual(again, got) {
				t.Fatalf("String() %q does not read back: %+v, %v", got.String(), again, err)
			}
		})
	}
}
