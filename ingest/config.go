package ingest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/paperbot/paperbot/ingest/sources"
)

// Sources is what PAPERBOT_SOURCES asks to follow. The zero value follows
// nothing.
type Sources struct {
	// ArXiv are arXiv categories (cs.LG, stat.ML), fetched together.
	ArXiv []string
	// OpenReview are venue IDs (ICLR.cc/2026/Conference) whose accepted
	// papers are listed.
	OpenReview []string
	// Files are paper files or globs, read like PAPERBOT_CORPUS.
	Files []string
}

// Kinds of source entries, as written in PAPERBOT_SOURCES.
const (
	KindArXiv      = "arxiv"
	KindOpenReview = "openreview"
	KindFiles      = "files"
)

// Grammar is PAPERBOT_SOURCES's syntax, for error messages and docs.
const Grammar = "KIND:VALUE[,VALUE...] entries separated by ';', KIND one of arxiv (categories), openreview (venue IDs), files (paths or globs)"

// ParseSources reads PAPERBOT_SOURCES: entries separated by ";", each
// "kind:value,value". Kinds may repeat (their values add up); white space
// around entries and values is ignored; an empty string follows nothing.
// An unknown kind, an empty entry value or a malformed category is an error
// naming the entry.
func ParseSources(s string) (Sources, error) {
	var out Sources
	for n, entry := range strings.Split(s, ";") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		kind, value, ok := strings.Cut(entry, ":")
		kind = strings.ToLower(strings.TrimSpace(kind))
		if !ok {
			return Sources{}, fmt.Errorf("PAPERBOT_SOURCES entry %d %q has no kind: write it as %s", n+1, entry, Grammar)
		}
		var vals []string
		for v := range strings.SplitSeq(value, ",") {
			if v = strings.TrimSpace(v); v != "" {
				vals = append(vals, v)
			}
		}
		if len(vals) == 0 {
			return Sources{}, fmt.Errorf("PAPERBOT_SOURCES entry %d %q names no %s to follow", n+1, entry, kind)
		}
		switch kind {
		case KindArXiv:
			for _, c := range vals {
				if !sources.ValidCategory(c) {
					return Sources{}, fmt.Errorf("PAPERBOT_SOURCES entry %d %q: %q is not an arXiv category such as cs.LG", n+1, entry, c)
				}
			}
			out.ArXiv = appendNew(out.ArXiv, vals)
		case KindOpenReview:
			for _, v := range vals {
				if strings.ContainsAny(v, " \t?&#") || !strings.Contains(v, "/") {
					return Sources{}, fmt.Errorf("PAPERBOT_SOURCES entry %d %q: %q is not an OpenReview venue ID such as ICLR.cc/2026/Conference", n+1, entry, v)
				}
			}
			out.OpenReview = appendNew(out.OpenReview, vals)
		case KindFiles:
			out.Files = appendNew(out.Files, vals)
		default:
			return Sources{}, fmt.Errorf("PAPERBOT_SOURCES entry %d %q: unknown kind %q (known: arxiv, openreview, files)", n+1, entry, kind)
		}
	}
	return out, nil
}

// Remote reports whether s follows any network service.
func (s Sources) Remote() bool { return len(s.ArXiv) > 0 || len(s.OpenReview) > 0 }

// String writes s back in PAPERBOT_SOURCES syntax.
func (s Sources) String() string {
	var parts []string
	for _, e := range []struct {
		kind string
		vals []string
	}{{KindArXiv, s.ArXiv}, {KindOpenReview, s.OpenReview}, {KindFiles, s.Files}} {
		if len(e.vals) > 0 {
			parts = append(parts, e.kind+":"+strings.Join(e.vals, ","))
		}
	}
	return strings.Join(parts, "; ")
}

func appendNew(dst, vals []string) []string {
	for _, v := range vals {
		if !slices.Contains(dst, v) {
			dst = append(dst, v)
		}
	}
	return dst
}
